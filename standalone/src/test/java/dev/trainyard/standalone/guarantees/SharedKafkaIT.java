package dev.trainyard.standalone.guarantees;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.Api.prBody;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.TrainyardServices;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.TestStack;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.junit.jupiter.api.Test;

/**
 * Two installs on one Kafka cluster, told apart by {@code TRAINYARD_KAFKA_TOPIC_PREFIX}: the test
 * stack (the default prefix) and a second set of services under {@code blue.} with a database of
 * its own. Both have the same organization and a queue of the same name, so a command of one read
 * by the other would show there as a PR it was never sent. Each applies only its own commands, and
 * the second's topics and consumer groups carry its prefix.
 */
class SharedKafkaIT {

  @Test
  void twoInstallsWithTheirOwnPrefixesShareOneKafkaAndNeverReadEachOther() throws Exception {
    TestStack first = TestStack.shared();
    String token = "token-" + UUID.randomUUID();
    Map<String, Object> properties = new HashMap<>(first.properties());
    properties.put("trainyard.kafka.topic-prefix", "blue.");
    properties.put(
        "spring.mongodb.uri",
        first.infrastructure().mongoUri().replaceAll("/[^/]*$", "/trainyard-blue"));
    properties.put("trainyard.bootstrap.token", token);
    String repo = Api.uniqueRepo();
    try (TrainyardServices blue = TrainyardServices.start(properties)) {
      Api one = first.api();
      Api two = new Api("http://127.0.0.1:" + blue.gatewayPort(), token);
      for (Api api : new Api[] {one, two}) {
        assertThat(api.post("/v1/createQueue", body(repo, "")).status()).isEqualTo(200);
      }

      assertThat(two.post("/v1/submitPullRequest", prBody(repo, 7)).status()).isEqualTo(200);
      assertThat(one.post("/v1/submitPullRequest", prBody(repo, 8)).status()).isEqualTo(200);
      QueueSteps.awaitState(two, repo, 7, "not_ready");
      QueueSteps.awaitState(one, repo, 8, "not_ready");

      assertThat(one.post("/v1/getSubmittedPullRequest", prBody(repo, 7)).status())
          .as("the default install never saw blue's command")
          .isEqualTo(404);
      assertThat(two.post("/v1/getSubmittedPullRequest", prBody(repo, 8)).status())
          .as("blue never saw the default install's command")
          .isEqualTo(404);
      try (Admin admin =
          Admin.create(
              Map.of(
                  AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                  first.infrastructure().kafkaBootstrap()))) {
        Set<String> topics = admin.listTopics().names().get();
        assertThat(topics)
            .contains("blue.queue-commands", "blue.queue-replies", "blue.events")
            .contains("trainyard.queue-commands", "trainyard.queue-replies", "trainyard.events");
        assertThat(
                admin.listConsumerGroups().all().get().stream()
                    .map(ConsumerGroupListing::groupId)
                    .toList())
            .contains("blue.queue-worker", "blue.webhook-dispatcher", "trainyard-queue-worker");
      }
    }
  }
}
