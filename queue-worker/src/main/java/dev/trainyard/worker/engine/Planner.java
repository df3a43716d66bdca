package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.CancellationReason;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.worker.engine.QueueEvent.PullRequestCancelled;
import dev.trainyard.worker.engine.QueueEvent.PullRequestNotReady;
import dev.trainyard.worker.engine.QueueEvent.PullRequestQueued;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rules evaluated after every accepted command (SCHEDULING.md "Planning rule"): readiness moves
 * PRs between {@code not_ready} and {@code pending}; a PR {@code not_ready} for longer than {@code
 * notReadyTimeoutHours} is cancelled.
 */
final class Planner {
  static final String MERGE_ITEM_NOW_READY = "MERGE_ITEM_NOW_READY";

  List<QueueEvent> plan(QueueAggregate state, Instant now) {
    List<QueueEvent> events = new ArrayList<>();
    boolean requiresTargets = state.settings().requiresImpactedTargets();
    for (Entry e : state.inQueueOrder()) {
      boolean ready = e.isReady(state.key().branch(), requiresTargets);
      if (e.state() == PrState.NOT_READY && ready) {
        events.add(new PullRequestQueued(e.id(), MERGE_ITEM_NOW_READY, now));
      } else if (e.state() == PrState.PENDING && !ready) {
        events.add(new PullRequestNotReady(e.id(), now));
      } else if (e.state() == PrState.NOT_READY
          && staleDeadline(state, e).filter(deadline -> !deadline.isAfter(now)).isPresent()) {
        events.add(new PullRequestCancelled(e.id(), CancellationReason.NOT_READY_TIMEOUT, now));
      }
    }
    return events;
  }

  Optional<Instant> nextDeadline(QueueAggregate state) {
    return state.entries().stream()
        .filter(e -> e.state() == PrState.NOT_READY)
        .map(e -> staleDeadline(state, e))
        .flatMap(Optional::stream)
        .min(Instant::compareTo);
  }

  private static Optional<Instant> staleDeadline(QueueAggregate state, Entry e) {
    long hours = state.settings().notReadyTimeoutHours();
    return hours == 0
        ? Optional.empty()
        : Optional.of(e.stateChangedAt().plus(Duration.ofHours(hours)));
  }
}
