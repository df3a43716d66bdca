package dev.trainyard.worker.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.view.EntryTags;
import dev.trainyard.worker.engine.CommandContext;
import dev.trainyard.worker.engine.EventApplier;
import dev.trainyard.worker.engine.PredictionScore;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.QueueEngine;
import dev.trainyard.worker.projection.Views;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The aggregate document survives the trip through the document store's JSON form unchanged. */
class StoredQueueJsonTest {

  @Test
  void aggregateDocumentRoundTrips() {
    QueueKey key = QueueKey.of("org", "github.com", "acme", "rocket", "main");
    QueueEngine engine = new QueueEngine();
    Instant now = Instant.parse("2026-09-17T10:16:02.123Z");
    QueueAggregate state = null;
    for (QueueCommand c :
        List.of(
            new QueueCommand.CreateQueue(QueueMode.PARALLEL, 3),
            new QueueCommand.SubmitPullRequest(12, null, true))) {
      state =
          EventApplier.applyAll(
              state, engine.decide(state, key, c, new CommandContext("c" + c, now)).events());
    }
    StoredQueue stored =
        new StoredQueue(
            key.id(),
            "org",
            7,
            state,
            Views.queue(state, now),
            now,
            List.of(new RecentCommand("x", Instant.parse("2026-11-25T00:00:00Z"))),
            "outbox-1",
            Map.of(state.entries().get(0).id(), 2L),
            1,
            false,
            new EntryTags(Map.of(1L, "k3j9ab1x", 2L, "00000000")),
            null);

    @SuppressWarnings("unchecked")
    Map<String, Object> doc = Json.mapper().convertValue(stored, Map.class);

    assertThat(doc)
        .containsEntry("_id", key.id())
        .containsEntry("nextDeadline", "2026-09-17T10:16:02.123Z");
    assertThat(((Map<?, ?>) doc.get("view")).get("state")).isEqualTo("running");
    assertThat((String) doc.get("entryTags")).matches("[12]:\\w{8} [12]:\\w{8}");
    assertThat(Json.mapper().convertValue(doc, StoredQueue.class)).isEqualTo(stored);

    // a document stored before later settings and fields existed still loads, with their defaults
    @SuppressWarnings("unchecked")
    Map<String, Object> aggregate = (Map<String, Object>) doc.get("aggregate");
    @SuppressWarnings("unchecked")
    Map<String, Object> settings = (Map<String, Object>) aggregate.get("settings");
    List.of("batchingAdaptive", "batchingMaxSize", "concurrencyAdaptive").forEach(settings::remove);
    @SuppressWarnings("unchecked")
    Map<String, Object> history = (Map<String, Object>) aggregate.get("history");
    List.of(
            "prFailures",
            "window",
            "lastTestResultsAt",
            "busyAfterLast",
            "failedAtMillis",
            "predictions")
        .forEach(history::remove);
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> entries = (List<Map<String, Object>>) aggregate.get("entries");
    entries.forEach(e -> List.of("flakyRetried", "directMergeDeclined").forEach(e::remove));

    QueueAggregate old = Json.mapper().convertValue(doc, StoredQueue.class).aggregate();

    assertThat(old.settings().batchingAdaptive()).isFalse();
    assertThat(old.settings().batchingMaxSize()).isEqualTo(16);
    assertThat(old.history().window()).isZero();
    assertThat(old.history().prFailures()).isEmpty();
    assertThat(old.history().failedAtMillis()).isEmpty();
    assertThat(old.history().predictions()).isEqualTo(PredictionScore.NONE);
    assertThat(old.entries().get(0).flakyRetried()).isFalse();
  }
}
