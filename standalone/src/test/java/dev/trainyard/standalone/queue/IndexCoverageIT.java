package dev.trainyard.standalone.queue;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.Api.prBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import dev.trainyard.common.store.StoreIndexes.Declared;
import dev.trainyard.common.webhook.WebhookDocuments;
import dev.trainyard.flaky.store.FlakyIndexes;
import dev.trainyard.gateway.config.GatewayIndexes;
import dev.trainyard.standalone.support.EmbeddedInfrastructure;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.ShowsLogOnFailure;
import dev.trainyard.standalone.support.WebhookReceiver;
import dev.trainyard.worker.store.WorkerIndexes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every query the services send while a queue lands pull requests, its history and metrics are
 * read, a webhook endpoint delivers and the admin lists dead commands, is served by a declared
 * index: the store reports each query no index serves (MongoDB's {@code notablescan}), and there is
 * none. The indexes are those the services declare, built in the background at their start.
 */
@ExtendWith(ShowsLogOnFailure.class)
class IndexCoverageIT extends QueueScenario {

  /** Every periodic sweep runs several times while the scenario does. */
  @Override
  protected Map<String, Object> properties() {
    Map<String, Object> props = new HashMap<>(super.properties());
    props.put("trainyard.worker.effect-sweep-interval", "500ms");
    return props;
  }

  @Test
  void everyQueryOfALandingQueueIsServedByADeclaredIndex() throws Exception {
    List<Declared> declared =
        Stream.of(
                WorkerIndexes.DECLARED,
                GatewayIndexes.DECLARED,
                WebhookDocuments.INDEXES,
                FlakyIndexes.declared(Duration.ofDays(30)))
            .flatMap(List::stream)
            .toList();
    EmbeddedInfrastructure infrastructure = (EmbeddedInfrastructure) stack.infrastructure();
    try (MongoClient client = MongoClients.create(infrastructure.mongoUri())) {
      MongoDatabase db = client.getDatabase("trainyard");
      Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> declared.stream().allMatch(d -> exists(db, d)));
    }
    Set<String> unindexed = ConcurrentHashMap.newKeySet();
    infrastructure.store().onUnindexedQuery(unindexed::add);

    try (WebhookReceiver receiver = new WebhookReceiver()) {
      assertThat(
              api.post(
                      "/v1/webhooks/createEndpoint",
                      "{\"url\":\"" + receiver.url() + "\",\"eventTypes\":[\"pull_request.*\"]}")
                  .status())
          .isEqualTo(200);
      QueueSteps.create(api, name, 2);
      QueueSteps.landPrs(api, git, name, 3);
      Awaitility.await().atMost(QueueSteps.PATIENCE).until(() -> receiver.received().size() >= 3);

      List<String> reads = new ArrayList<>();
      reads.add(api.post("/v1/listPullRequests", body(name, "")).body());
      reads.add(api.post("/v1/listPullRequests", body(name, "\"state\":\"MERGED\"")).body());
      reads.add(api.post("/v1/getSubmittedPullRequest", prBody(name, 2)).body());
      reads.add(api.post("/v1/getMergeQueueTestingDetails", prBody(name, 3)).body());
      reads.add(api.post("/v1/getMergeQueueMetrics", body(name, "")).body());
      reads.add(api.post("/v1/getQueue", body(name, "")).body());
      reads.add(api.post("/v1/webhooks/listEndpoints", "{}").body());
      reads.add(api.post("/v1/webhooks/listDeliveries", "{}").body());
      reads.add(stack.admin().post("/admin/v1/listDeadCommands", "{}").body());
      assertThat(reads).hasSize(9);
    }

    assertThat(unindexed.stream().filter(shape -> !shape.startsWith("system.")))
        .as("queries no declared index serves")
        .isEmpty();
  }

  private static boolean exists(MongoDatabase db, Declared index) {
    Document keys = Document.parse(index.keys().toBsonDocument().toJson());
    for (Document existing : db.getCollection(index.collection()).listIndexes()) {
      if (existing.get("key", Document.class).equals(keys)) {
        return true;
      }
    }
    return false;
  }
}
