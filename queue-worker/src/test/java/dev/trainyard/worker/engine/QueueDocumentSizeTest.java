package dev.trainyard.worker.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.ImpactedTargets;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.worker.projection.Views;
import dev.trainyard.worker.store.QueueStore;
import dev.trainyard.worker.store.StoredQueue;
import java.util.List;
import java.util.Map;
import org.bson.RawBsonDocument;
import org.bson.codecs.DocumentCodec;
import org.junit.jupiter.api.Test;

/**
 * What a waiting PR weighs in its queue's stored document at its longest (GitHub's longest title,
 * names of 255 characters, impacted targets): the figure behind the README's sizes and how many
 * such PRs fit the document limit.
 */
class QueueDocumentSizeTest {
  private static final int PRS = 300;

  @Test
  void aWaitingPrAtItsLongestWeighsAtMost2200BytesOfTheQueueDocument() {
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
              Mergeability.NOT_MERGEABLE));
      q.apply(
          new QueueCommand.SetImpactedTargets(
              pr, "", ImpactedTargets.of(List.of("//t:" + pr, "//u:" + pr), "d" + pr)));
    }

    long perPr = (bytes(q.state()) - bytes(QueueFixture.queue(10_000).state())) / PRS;

    assertThat(perPr).isBetween(1_500L, 2_200L);
    assertThat(QueueStore.DEFAULT_MAX_DOCUMENT_BYTES / perPr)
        .as("PRs the limit holds")
        .isGreaterThan(3_800);
  }

  private static long bytes(QueueAggregate state) {
    StoredQueue stored =
        new StoredQueue(
            state.key().id(),
            "org",
            1,
            state,
            Views.queue(state),
            null,
            List.of(),
            null,
            Map.of(),
            state.entries().size(),
            false);
    return new RawBsonDocument(Json.document(stored), new DocumentCodec())
        .getByteBuffer()
        .remaining();
  }
}
