package dev.trainyard.worker.engine;

import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.QueueMode;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Queue states for the tests of what runs around the engine, made by the engine itself. */
public final class SubmittedQueue {
  private SubmittedQueue() {}

  /** A queue on {@code key} holding PR 1, submitted and not yet read from its host. */
  public static QueueAggregate submitted(QueueKey key, Instant now) {
    return of(
        key,
        now,
        new QueueCommand.CreateQueue(QueueMode.SINGLE, 5),
        new QueueCommand.SubmitPullRequest(1, null, null));
  }

  /** ... and read: open and mergeable at {@code sha-1}, so its test branch is asked for. */
  public static QueueAggregate ready(QueueKey key, Instant now) {
    return of(
        key,
        now,
        new QueueCommand.CreateQueue(QueueMode.SINGLE, 5),
        new QueueCommand.SubmitPullRequest(1, null, null),
        new QueueCommand.RecordPullRequestState(
            1,
            true,
            "sha-1",
            "Change 1",
            "dev",
            "main",
            null,
            Mergeability.MERGEABLE,
            null,
            List.of()));
  }

  /** {@code queue} with PR {@code number} submitted to it too. */
  public static QueueAggregate andSubmitted(QueueAggregate queue, long number, Instant now) {
    return and(queue, now, new QueueCommand.SubmitPullRequest(number, null, null));
  }

  /** {@code queue} once {@code command} is applied to it. */
  public static QueueAggregate and(QueueAggregate queue, Instant now, QueueCommand command) {
    return apply(queue, queue.key(), now, command);
  }

  /** The queue on {@code key} that {@code commands} make, each accepted. */
  public static QueueAggregate of(QueueKey key, Instant now, QueueCommand... commands) {
    return apply(null, key, now, commands);
  }

  private static QueueAggregate apply(
      QueueAggregate from, QueueKey key, Instant now, QueueCommand... commands) {
    QueueEngine engine = new QueueEngine();
    QueueAggregate state = from;
    for (QueueCommand command : commands) {
      Decision decision =
          engine.decide(state, key, command, new CommandContext(UUID.randomUUID().toString(), now));
      if (!decision.isAccepted()) {
        throw new AssertionError(command + " was refused: " + decision.rejection());
      }
      state = EventApplier.applyAll(state, decision.events());
    }
    return state;
  }
}
