package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.CancellationReason;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.worker.engine.QueueEvent.PullRequestCancelled;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A PR {@code not_ready} for longer than {@code notReadyTimeoutHours} is cancelled. */
final class CancelStale implements PlanningRule {
  @Override
  public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
    return cancelStale(state, ctx.now());
  }

  /** Cancels the PRs {@code not_ready} for longer than {@code notReadyTimeoutHours}. */
  static List<QueueEvent> cancelStale(QueueAggregate state, Instant now) {
    List<QueueEvent> events = new ArrayList<>();
    for (Entry e : state.inQueueOrder()) {
      if (e.state() == PrState.NOT_READY
          && staleDeadline(state, e).filter(deadline -> !deadline.isAfter(now)).isPresent()) {
        events.add(new PullRequestCancelled(e.id(), CancellationReason.NOT_READY_TIMEOUT, now));
      }
    }
    return events;
  }

  static Optional<Instant> staleDeadline(QueueAggregate state, Entry e) {
    long hours = state.settings().notReadyTimeoutHours();
    return hours == 0
        ? Optional.empty()
        : Optional.of(e.stateChangedAt().plus(Duration.ofHours(hours)));
  }
}
