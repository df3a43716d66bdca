package dev.trainyard.worker.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.ImpactedTargets;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.worker.projection.Views;
import dev.trainyard.worker.store.QueueSplit;
import dev.trainyard.worker.store.StoredQueue;
import java.util.List;
import java.util.Map;
import org.bson.RawBsonDocument;
import org.bson.codecs.DocumentCodec;
import org.junit.jupiter.api.Test;

/**
 * What a waiting PR weighs in the store at its longest (GitHub's longest title, names of 255
 * characters, impacted targets): a few bytes of its queue's document, which every command rewrites,
 * and one entry document of at most 2,600 bytes, written only when the PR changes (ADR 0019). The
 * figures behind the README's sizes.
 */
class QueueDocumentSizeTest {
  private static final int PRS = 300;

  @Test
  void aWaitingPrAtItsLongestWeighsAtMost20BytesOfTheQueueDocumentAnd2600OfItsOwn() {
    QueueFixture q = QueueFixture.queue(10_000);
    for (long pr = 1; pr <= PRS; pr++) {
      q.submitted(pr);
      q.apply(
          new QueueCommand.RecordPullRequestState(
              pr,
              true,
              "a".repeat(40),
              "t".repeat(1_000),
              "u".repeat(1_000),
              "main",
              "h".repeat(1_000),
              Mergeability.NOT_MERGEABLE,
              null,
              List.of()));
      q.apply(
          new QueueCommand.SetImpactedTargets(
              pr, "", ImpactedTargets.of(List.of("//t:" + pr, "//u:" + pr), "d" + pr)));
    }

    QueueSplit full = split(q.state());
    QueueSplit empty = split(QueueFixture.queue(10_000).state());
    long headerPerPr = (bytes(full.next().header()) - bytes(empty.next().header())) / PRS;
    long entryDocument = full.written().stream().mapToLong(d -> bytes(d)).max().orElseThrow();

    assertThat(full.written()).hasSize(PRS);
    assertThat(headerPerPr).isBetween(10L, 20L);
    assertThat(entryDocument).isBetween(1_500L, 2_600L);
  }

  private static QueueSplit split(QueueAggregate state) {
    StoredQueue stored =
        new StoredQueue(
            state.key().id(),
            "org",
            1,
            state,
            Views.queue(state, QueueFixture.T0),
            null,
            List.of(),
            null,
            Map.of(),
            state.entries().size(),
            false,
            null,
            null);
    return QueueSplit.of(stored, StoredQueue.absent(state.key().id(), "org"));
  }

  private static long bytes(Object stored) {
    return new RawBsonDocument(Json.document(stored), new DocumentCodec())
        .getByteBuffer()
        .remaining();
  }
}
