package dev.trainyard.standalone.guarantees;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.Api.prBody;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.standalone.TrainyardServices;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.CrashAfterStore;
import dev.trainyard.standalone.support.EventLog;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.TestStack;
import dev.trainyard.worker.processing.CommandListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import tools.jackson.databind.JsonNode;

/**
 * The guarantees of ARCHITECTURE.md, each by fault injection: a command redelivered after a crash
 * between the store write and the offset commit is applied once; two workers split the partitions
 * and lose no update; every 200 is visible to the next read.
 */
public class GuaranteesIT extends OwnStack {
  private static final String CRASHING_REPO = "crash-" + Api.uniqueRepo();
  // the API's commands only: the poller also records that no source host serves this repository
  private final CrashAfterStore crash =
      new CrashAfterStore(
          e ->
              e.queue().repo().name().equals(CRASHING_REPO)
                  && !(e.command() instanceof QueueCommand.RecordSourceProblem));
  private Api api;

  @Override
  protected List<ApplicationContextInitializer<ConfigurableApplicationContext>> workerSetup() {
    return List.of(TestStack.probe(crash));
  }

  @BeforeEach
  void client() {
    api = stack.api();
  }

  /**
   * Create, submit and cancel each crash once after their state is stored. Applied a second time,
   * create would answer 409, cancel 404, and the events would be published twice.
   */
  @Test
  void commandRedeliveredAfterACrashIsAppliedOnce() {
    String repo = CRASHING_REPO;
    String pr = "\"pr\":{\"number\":777}";

    Api.Response created = api.post("/v1/createQueue", body(repo, ""));
    Api.Response submitted = api.post("/v1/submitPullRequest", body(repo, pr));
    Api.Response cancelled = api.post("/v1/cancelPullRequest", body(repo, pr));

    assertThat(crash.crashes()).as("every command crashed once").isEqualTo(3);
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(200);
    assertThat(cancelled.status()).as(cancelled.body()).isEqualTo(200);
    JsonNode listed = api.post("/v1/listPullRequests", body(repo, "")).json();
    assertThat(listed.get("pullRequests").size()).isEqualTo(1);
    assertThat(listed.get("pullRequests").get(0).get("state").asString()).isEqualTo("cancelled");
    List<EventLog.Event> events =
        EventLog.readAll(stack.infrastructure().kafkaBootstrap()).stream()
            .filter(e -> e.body().path("repository").path("name").asString("").equals(repo))
            .toList();
    assertThat(events)
        .extracting(EventLog.Event::type)
        .containsExactly("pull_request.submitted", "pull_request.canceled");
    JsonNode event = events.get(0).body();
    assertThat(event.get("pr_number").asLong()).isEqualTo(777);
    assertThat(event.get("submitted_reason").asString()).isEqualTo("API_REQUESTED");
    assertThat(event.get("status").asString()).isEqualTo("not_ready");
    assertThat(event.get("target_branch").asString()).isEqualTo("main");
    assertThat(event.get("timestamp").asString())
        .matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");
    assertThat(events.get(1).body().get("cancellation_reason").asString())
        .isEqualTo("USER_REQUESTED");
  }

  @Test
  void twoWorkersSplitThePartitionsAndLoseNoUpdate() throws Exception {
    CrashAfterStore secondCounter = new CrashAfterStore(e -> false);
    ConfigurableApplicationContext second =
        TrainyardServices.worker(stack.properties(), TestStack.probe(secondCounter));
    try {
      awaitBothWorkersOwnPartitions(second);
      int before = crash.stored();
      List<String> repos = new ArrayList<>();
      for (int q = 0; q < 24; q++) {
        repos.add(Api.uniqueRepo());
        assertThat(api.post("/v1/createQueue", body(repos.get(q), "")).status()).isEqualTo(200);
      }
      ExecutorService pool = Executors.newFixedThreadPool(8);
      try {
        List<Future<Api.Response>> answers = new ArrayList<>();
        for (String repo : repos) {
          for (int n = 1; n <= 5; n++) {
            String request = prBody(repo, n);
            answers.add(pool.submit(() -> api.post("/v1/submitPullRequest", request)));
          }
        }
        for (Future<Api.Response> answer : answers) {
          assertThat(answer.get().status()).as(answer.get().body()).isEqualTo(200);
        }
      } finally {
        pool.shutdownNow();
      }
      for (String repo : repos) {
        assertThat(
                api.post("/v1/getQueue", body(repo, "")).json().get("enqueuedPullRequests").size())
            .as("queue %s", repo)
            .isEqualTo(5);
      }
      assertThat(crash.stored() - before).as("first worker did work").isPositive();
      assertThat(secondCounter.stored()).as("second worker did work").isPositive();
    } finally {
      second.close();
    }
    // the partitions move back to the remaining worker: commands still flow
    String repo = Api.uniqueRepo();
    assertThat(api.post("/v1/createQueue", body(repo, "")).status()).isEqualTo(200);
    assertThat(api.post("/v1/submitPullRequest", prBody(repo, 1)).status()).isEqualTo(200);
  }

  @Test
  void twoGatewaysShareTheWorkAndSeeEachOthersWrites() {
    ConfigurableApplicationContext second = TrainyardServices.gateway(stack.properties());
    try {
      Api other =
          new Api(
              "http://127.0.0.1:"
                  + second.getEnvironment().getRequiredProperty("local.server.port"),
              api.token());
      String repo = Api.uniqueRepo();
      assertThat(other.post("/v1/createQueue", body(repo, "")).status()).isEqualTo(200);
      for (int n = 1; n <= 10; n++) {
        Api writer = n % 2 == 0 ? api : other;
        Api reader = n % 2 == 0 ? other : api;
        assertThat(writer.post("/v1/submitPullRequest", prBody(repo, n)).status()).isEqualTo(200);
        assertThat(reader.post("/v1/getSubmittedPullRequest", prBody(repo, n)).status())
            .isEqualTo(200);
      }
      String cursor =
          api.post("/v1/listPullRequests", body(repo, "\"take\":4"))
              .json()
              .get("nextCursor")
              .asString();
      assertThat(
              other
                  .post(
                      "/v1/listPullRequests",
                      body(repo, "\"take\":4,\"cursor\":\"" + cursor + "\""))
                  .status())
          .as("a cursor from one gateway works on the other")
          .isEqualTo(200);
    } finally {
      second.close();
    }
  }

  @Test
  void everyAcceptedWriteIsVisibleToTheNextRead() {
    String repo = Api.uniqueRepo();
    assertThat(api.post("/v1/createQueue", body(repo, "")).status()).isEqualTo(200);
    for (int n = 1; n <= 30; n++) {
      assertThat(api.post("/v1/submitPullRequest", prBody(repo, n)).status()).isEqualTo(200);
      assertThat(api.post("/v1/getSubmittedPullRequest", prBody(repo, n)).status()).isEqualTo(200);
      assertThat(api.post("/v1/getQueue", body(repo, "")).json().get("enqueuedPullRequests").size())
          .isEqualTo(n);
      JsonNode newest =
          api.post("/v1/listPullRequests", body(repo, "\"take\":1"))
              .json()
              .get("pullRequests")
              .get(0);
      assertThat(newest.get("prNumber").asLong()).isEqualTo(n);
      if (n % 5 == 0) {
        assertThat(api.post("/v1/cancelPullRequest", prBody(repo, n)).status()).isEqualTo(200);
        assertThat(
                api.post("/v1/getSubmittedPullRequest", prBody(repo, n))
                    .json()
                    .get("state")
                    .asString())
            .isEqualTo("cancelled");
        assertOkSubmit(repo, n);
      }
    }
  }

  private void assertOkSubmit(String repo, int n) {
    assertThat(api.post("/v1/submitPullRequest", prBody(repo, n)).status()).isEqualTo(200);
    assertThat(
            api.post("/v1/getSubmittedPullRequest", prBody(repo, n)).json().get("state").asString())
        .isEqualTo("not_ready");
  }

  private void awaitBothWorkersOwnPartitions(ConfigurableApplicationContext second) {
    KafkaListenerEndpointRegistry first =
        stack.services().workerContext().getBean(KafkaListenerEndpointRegistry.class);
    KafkaListenerEndpointRegistry other = second.getBean(KafkaListenerEndpointRegistry.class);
    Awaitility.await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                assigned(first) > 0
                    && assigned(other) > 0
                    && assigned(first) + assigned(other) == 6);
  }

  private static int assigned(KafkaListenerEndpointRegistry registry) {
    var partitions = registry.getListenerContainer(CommandListener.ID).getAssignedPartitions();
    return partitions == null ? 0 : partitions.size();
  }
}
