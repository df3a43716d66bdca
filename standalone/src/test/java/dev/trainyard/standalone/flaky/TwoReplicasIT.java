package dev.trainyard.standalone.flaky;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.model.Filters;
import dev.trainyard.flaky.cases.RecentRun;
import dev.trainyard.flaky.cases.TestCaseStore;
import dev.trainyard.standalone.TrainyardServices;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.EventLog;
import dev.trainyard.standalone.support.OwnStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two replicas of the flaky-tests service on one store, each behind its own gateway, as a rollout
 * or the chart's autoscaler runs them: concurrent uploads of one repository classify the same test
 * cases at the same moment.
 */
class TwoReplicasIT extends OwnStack {
  private static final int UPLOADS = 20;
  private static final int TESTS = 40;
  private ConfigurableApplicationContext flaky2;
  private ConfigurableApplicationContext gateway2;

  @BeforeAll
  void startSecondReplica() {
    flaky2 = TrainyardServices.flaky(stack.properties());
    Map<String, Object> props = new HashMap<>(stack.properties());
    props.put(
        "trainyard.flaky-tests.url",
        "http://127.0.0.1:" + flaky2.getEnvironment().getRequiredProperty("local.server.port"));
    gateway2 = TrainyardServices.gateway(props);
  }

  @AfterAll
  void stopSecondReplica() {
    gateway2.close();
    flaky2.close();
  }

  @Test
  void twentyConcurrentUploadsOverTwoReplicasLoseNoRunAndAnnounceEachTransitionOnce()
      throws Exception {
    Api first = stack.api();
    Api second =
        new Api(
            "http://127.0.0.1:"
                + gateway2.getEnvironment().getRequiredProperty("local.server.port"),
            first.token());
    String repo = Api.uniqueRepo();
    List<String> cases = IntStream.range(0, TESTS).mapToObj(i -> "t" + i).toList();
    List<String> uploadIds = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(UPLOADS);
    try {
      List<Future<Api.Response>> sent = new ArrayList<>();
      for (int i = 0; i < UPLOADS; i++) {
        String uploadId = UUID.randomUUID().toString();
        uploadIds.add(uploadId);
        // one commit failing and passing: flaky (F1). An even upload fails a tenth of the tests
        // (each test once over the ten): one that failed them all would read as an outage
        int upload = i;
        Multipart form =
            Multipart.upload(repo, "c1", "feature/x", 5L)
                .field("uploadId", uploadId)
                .file(
                    "file",
                    "r.xml",
                    Reports.surefire(
                        "com.acme.ManyTest",
                        IntStream.range(0, TESTS)
                            .mapToObj(
                                t ->
                                    cases.get(t)
                                        + (upload % 2 == 0 && t % 10 == upload / 2 % 10
                                            ? ":F"
                                            : ":P"))
                            .toList()));
        Api api = i % 2 == 0 ? first : second;
        sent.add(pool.submit(() -> upload(api, form)));
      }
      for (Future<Api.Response> f : sent) {
        Api.Response r = f.get();
        assertThat(r.status()).as(r.body()).isEqualTo(200);
      }
    } finally {
      pool.shutdownNow();
    }

    try (MongoClient client = MongoClients.create(stack.infrastructure().mongoUri())) {
      List<Document> docs =
          client
              .getDatabase("trainyard")
              .getCollection("flaky_test_cases")
              .find(Filters.eq("repo", "github.com/acme/" + repo))
              .into(new ArrayList<>());
      assertThat(docs).hasSize(TESTS);
      for (Document doc : docs) {
        List<String> runs =
            TestCaseStore.fromDocument(doc).runs().stream().map(RecentRun::uploadId).toList();
        assertThat(runs).as(doc.getString("name")).containsExactlyInAnyOrderElementsOf(uploadIds);
        assertThat(doc.get("status", Document.class).getString("value")).isEqualTo("flaky");
      }
    }
    // the events leave through the outbox, after the documents are written: wait for all of them
    Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> changes(repo).size() == TESTS);
    Thread.sleep(2_000); // a late duplicate's time to show, not a wait for a condition
    Map<String, List<EventLog.Event>> changes = changes(repo);
    assertThat(changes).hasSize(TESTS);
    changes.forEach(
        (test, events) ->
            assertThat(events).as("healthy → flaky of " + test + " announced once").hasSize(1));
  }

  /** The status changes announced for the tests of {@code repo}, by test id. */
  private Map<String, List<EventLog.Event>> changes(String repo) {
    return EventLog.readAll(stack.infrastructure().kafkaBootstrap()).stream()
        .filter(e -> "test_case.status_changed".equals(e.type()))
        .filter(
            e ->
                e.body()
                    .get("test_case")
                    .get("repository")
                    .get("html_url")
                    .asString()
                    .endsWith("/" + repo))
        .collect(Collectors.groupingBy(e -> e.body().get("test_case").get("id").asString()));
  }

  private static Api.Response upload(Api api, Multipart form) {
    return form.uploadWith(api);
  }
}
