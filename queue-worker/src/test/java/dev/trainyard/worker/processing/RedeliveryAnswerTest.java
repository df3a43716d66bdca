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
import dev.trainyard.worker.store.Answer;
import dev.trainyard.worker.store.QueueTooLarge;
import dev.trainyard.worker.store.RecentCommand;
import dev.trainyard.worker.store.StoredQueue;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A command handled before is answered as it was then, whether it arrives again as a redelivery (a
 * later poll, its answer on record) or twice in one poll: accepted when it was applied, rejected
 * the same way (with the same sentence) when the engine rejected it, a fault when it was kept as
 * dead, a full queue when it was refused for size — and never decided again. Also from a queue
 * document written before answers had a collection of their own.
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

    QueueCommand command =
        first == FirstAnswer.REJECTED
            ? new QueueCommand.CancelPullRequest(7)
            : new QueueCommand.SubmitPullRequest(7, null, false);

    QueueBatch once =
        QueueBatch.decide(
            queue,
            List.of(envelope(id, command), envelope(id, command)),
            Map.of(),
            decider,
            condemned,
            NOW,
            e -> null);
    StoredQueue after = once.changed() ? once.next(engine, new RunViews(events)).queue() : queue;
    // the answers stored, then read back as the next worker would
    Map<String, Answer> remembered = new HashMap<>();
    for (Answer answer : once.answers()) {
      remembered.put(
          answer.commandId(), Json.mapper().convertValue(Json.document(answer), Answer.class));
    }
    QueueBatch again =
        QueueBatch.decide(
            after, List.of(envelope(id, command)), remembered, decider, Map.of(), NOW, e -> null);

    assertThat(once.answers()).as("one answer per command, not per delivery").hasSize(1);
    assertThat(once.replies())
        .extracting(r -> r.body().rejection())
        .containsExactly(first.rejection, first.rejection);
    assertThat(again.replies())
        .extracting(r -> r.body().rejection())
        .containsExactly(first.rejection);
    assertThat(again.replies().get(0).body().message())
        .isEqualTo(once.replies().get(0).body().message());
    assertThat(again.changed()).as("nothing is decided again").isFalse();
    assertThat(again.answers()).as("nothing answered anew").isEmpty();
  }

  /**
   * A no-op (a resubmit that changes nothing) and a rejection are answered from the record after
   * the command that followed them in their poll changed the queue: deciding them again on that
   * version would queue a cancelled PR, or cancel a PR whose submit was answered 200.
   */
  @ParameterizedTest
  @EnumSource(Order.class)
  void anAnswerWithoutChangeHoldsAfterTheNextCommandChangedTheQueue(Order order) {
    StoredQueue queue =
        stored(
            StoredQueue.absent(KEY.id(), "org"),
            order.submitFirst
                ? List.of(
                    envelope("create", new QueueCommand.CreateQueue(QueueMode.SINGLE, 1)),
                    envelope("submit-5", new QueueCommand.SubmitPullRequest(5, null, null)))
                : List.of(envelope("create", new QueueCommand.CreateQueue(QueueMode.SINGLE, 1))));
    List<CommandEnvelope> poll =
        List.of(envelope("first", order.first), envelope("then", order.then));
    QueueBatch once = QueueBatch.decide(queue, poll, Map.of(), decider, Map.of(), NOW, e -> null);
    StoredQueue after = once.next(engine, new RunViews(events)).queue();
    Map<String, Answer> remembered = new HashMap<>();
    once.next(engine, new RunViews(events))
        .outbox()
        .answers()
        .forEach(a -> remembered.put(a.commandId(), a));

    QueueBatch again =
        QueueBatch.decide(after, poll, remembered, decider, Map.of(), NOW, e -> null);

    assertThat(again.replies())
        .extracting(r -> r.body().rejection())
        .containsExactlyElementsOf(once.replies().stream().map(r -> r.body().rejection()).toList());
    assertThat(again.changed()).isFalse();
    assertThat(remembered.values()).extracting(Answer::version).containsOnly(after.version());
  }

  enum Order {
    RESUBMIT_THEN_CANCEL(
        true,
        new QueueCommand.SubmitPullRequest(5, null, null),
        new QueueCommand.CancelPullRequest(5)),
    CANCEL_THEN_SUBMIT(
        false,
        new QueueCommand.CancelPullRequest(5),
        new QueueCommand.SubmitPullRequest(5, null, null));

    final boolean submitFirst;
    final QueueCommand first;
    final QueueCommand then;

    Order(boolean submitFirst, QueueCommand first, QueueCommand then) {
      this.submitFirst = submitFirst;
      this.first = first;
      this.then = then;
    }
  }

  /** A queue document of before the answers collection: its remembered ids still answer. */
  @Test
  void aQueueDocumentOfBeforeTheAnswersCollectionStillAnswersAndHandsItsIdsOn() {
    StoredQueue queue =
        stored(
            StoredQueue.absent(KEY.id(), "org"),
            List.of(envelope("create", new QueueCommand.CreateQueue(QueueMode.SINGLE, 1))));
    StoredQueue legacy =
        new StoredQueue(
            queue.id(),
            queue.org(),
            queue.version(),
            queue.aggregate(),
            queue.view(),
            queue.nextDeadline(),
            List.of(new RecentCommand("old-submit", NOW.minusSeconds(60))),
            queue.outboxId(),
            queue.rowVersions(),
            queue.activeEntries(),
            queue.effectsPending(),
            queue.entryTags(),
            null);

    QueueBatch batch =
        QueueBatch.decide(
            legacy,
            List.of(
                envelope("old-submit", new QueueCommand.SubmitPullRequest(9, null, false)),
                envelope("new-submit", new QueueCommand.SubmitPullRequest(10, null, false))),
            Map.of(),
            decider,
            Map.of(),
            NOW,
            e -> null);
    QueueBatch.Written written = batch.next(engine, new RunViews(events));

    assertThat(batch.outcomes())
        .extracting(QueueBatch.Concluded::outcome)
        .containsExactly(QueueBatch.Outcome.DEDUPLICATED, QueueBatch.Outcome.APPLIED);
    assertThat(written.queue().recent()).isEmpty();
    assertThat(written.outbox().answers())
        .extracting(Answer::commandId)
        .containsExactlyInAnyOrder("new-submit", "old-submit");
  }

  private StoredQueue stored(StoredQueue before, List<CommandEnvelope> commands) {
    return QueueBatch.decide(before, commands, Map.of(), decider, Map.of(), NOW, e -> null)
        .next(engine, new RunViews(events))
        .queue();
  }

  private static CommandEnvelope envelope(String id, QueueCommand command) {
    return new CommandEnvelope(
        id, "correlation-" + id + "-" + System.nanoTime(), KEY, NOW, command);
  }
}
