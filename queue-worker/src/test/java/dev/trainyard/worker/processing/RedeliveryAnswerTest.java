package dev.trainyard.worker.processing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.CommandEnvelope;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.command.RejectionType;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.worker.engine.QueueEngine;
import dev.trainyard.worker.projection.PublicEvents;
import dev.trainyard.worker.projection.RunViews;
import dev.trainyard.worker.store.QueueTooLarge;
import dev.trainyard.worker.store.StoredQueue;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A command handled before is answered as it was then, whether it arrives again as a redelivery (a
 * later poll, after the queue's version with it was stored) or twice in one poll: accepted when it
 * was applied, rejected the same way when the engine rejected it, a fault when it was kept as dead,
 * a full queue when it was refused for size — never "accepted" for a command that changed nothing.
 */
class RedeliveryAnswerTest {
  private static final QueueKey KEY = QueueKey.of("org", "github.com", "acme", "rocket", "main");
  private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
  private static final String BOOM = "boom";

  private final QueueEngine engine = new QueueEngine();
  private final PublicEvents events = new PublicEvents("http://trainyard.test");
  private final QueueBatch.Decider decider =
      new QueueBatch.Decider(
          engine,
          events,
          new ProcessingProbe() {
            @Override
            public void afterStore(CommandEnvelope envelope) {}

            @Override
            public void beforeDecide(CommandEnvelope envelope) {
              if (envelope.commandId().startsWith(BOOM)) {
                throw new IllegalStateException("a bug in the engine");
              }
            }
          });

  enum FirstAnswer {
    ACCEPTED(null),
    REJECTED(RejectionType.NOT_FOUND),
    DEAD(RejectionType.FAULT),
    TOO_LARGE(RejectionType.LIMIT_REACHED);

    final RejectionType rejection;

    FirstAnswer(RejectionType rejection) {
      this.rejection = rejection;
    }
  }

  @ParameterizedTest
  @EnumSource(FirstAnswer.class)
  void aCommandHandledBeforeIsAnsweredAsItWasThen(FirstAnswer first) {
    StoredQueue queue =
        stored(
            StoredQueue.absent(KEY.id(), "org"),
            List.of(envelope("create", new QueueCommand.CreateQueue(QueueMode.SINGLE, 1))));
    String id = first == FirstAnswer.DEAD ? BOOM + "-1" : "submit-1";
    Map<String, RuntimeException> condemned =
        first == FirstAnswer.TOO_LARGE ? Map.of(id, new QueueTooLarge(KEY.id(), 10, 5)) : Map.of();

    // a rejected command changes nothing and is not remembered: decided again, rejected again
    QueueCommand command =
        first == FirstAnswer.REJECTED
            ? new QueueCommand.CancelPullRequest(7)
            : new QueueCommand.SubmitPullRequest(7, null, false);

    QueueBatch once =
        QueueBatch.decide(
            queue,
            List.of(envelope(id, command), envelope(id, command)),
            decider,
            condemned,
            NOW,
            e -> null);
    StoredQueue after = once.changed() ? once.next(engine, new RunViews(events)).queue() : queue;
    // stored, then read back as the next worker would
    StoredQueue reread = Json.mapper().convertValue(Json.document(after), StoredQueue.class);
    QueueBatch again =
        QueueBatch.decide(
            reread, List.of(envelope(id, command)), decider, Map.of(), NOW, e -> null);

    assertThat(once.replies())
        .extracting(r -> r.body().rejection())
        .containsExactly(first.rejection, first.rejection);
    assertThat(again.replies())
        .extracting(r -> r.body().rejection())
        .containsExactly(first.rejection);
    assertThat(again.changed()).as("nothing is decided again").isFalse();
  }

  private StoredQueue stored(StoredQueue before, List<CommandEnvelope> commands) {
    return QueueBatch.decide(before, commands, decider, Map.of(), NOW, e -> null)
        .next(engine, new RunViews(events))
        .queue();
  }

  private static CommandEnvelope envelope(String id, QueueCommand command) {
    return new CommandEnvelope(
        id, "correlation-" + id + "-" + System.nanoTime(), KEY, NOW, command);
  }
}
