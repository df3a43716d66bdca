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
import java.util.stream.Stream;

/**
 * The readiness rules of SCHEDULING.md "Planning rule" ({@link PlanningRules} orders them): a PR
 * whose dependency failed is cancelled; readiness moves PRs that wait for a run between {@code
 * not_ready} and {@code pending}; a PR {@code not_ready} for longer than {@code
 * notReadyTimeoutHours} is cancelled. And when the queue next needs a {@code Tick}.
 */
final class Planner {
  private final Duration settle;
  private final Duration spanBarrier;

  /**
   * @param settle {@code TRAINYARD_STATUS_SETTLE} (see {@link CheckRule.Reported})
   * @param spanBarrier see {@link QueueEngine#SPAN_BARRIER}
   */
  Planner(Duration settle, Duration spanBarrier) {
    this.settle = settle;
    this.spanBarrier = spanBarrier;
  }

  /** Cancels the PRs, in queue order, of which a dependency failed or was cancelled. */
  static List<QueueEvent> cancelDependents(QueueAggregate state, Instant now) {
    List<QueueEvent> events = new ArrayList<>();
    for (Entry e : state.inQueueOrder()) {
      if (Dependencies.failed(state, e).isPresent()) {
        events.add(new PullRequestCancelled(e.id(), CancellationReason.DEPENDENCY_FAILED, now));
      }
    }
    return events;
  }

  /**
   * A PR is ready when it merges cleanly into the target from it, has impacted targets where the
   * mode needs them, and the checks that decide its runs are known ({@link
   * QueueAggregate#checksProblem()}): a not-ready PR that became ready is {@code pending}, and a
   * pending PR without a run that no longer is goes back to {@code not_ready}.
   */
  static List<QueueEvent> followReadiness(QueueAggregate state, Instant now) {
    List<QueueEvent> events = new ArrayList<>();
    boolean requiresTargets = state.settings().requiresImpactedTargets();
    boolean checksKnown = state.checksProblem() == null;
    for (Entry e : state.inQueueOrder()) {
      boolean ready =
          checksKnown
              && e.isReady(state.key().branch(), requiresTargets)
              && Dependencies.problem(state, e).isEmpty();
      if (e.state() == PrState.NOT_READY && ready) {
        events.add(new PullRequestQueued(e.id(), Reasons.MERGE_ITEM_NOW_READY, now));
      } else if (e.state() == PrState.PENDING && e.testRunId() == null && !ready) {
        events.add(new PullRequestNotReady(e.id(), now));
      }
    }
    return events;
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

  /**
   * The earliest stale timeout of a not-ready PR, testing timeout of a live run, end of a green
   * run's settle time, end of a partial batch's wait, change of the landing gate (a merge window
   * opening or closing, a freeze's end), or end of a red run's wait for its test results.
   */
  Optional<Instant> nextDeadline(QueueAggregate state, Instant now) {
    long timeout = state.settings().testingTimeoutMinutes();
    CheckRule rule = CheckRule.of(state, settle);
    return Stream.of(
            state.entries().stream()
                .filter(e -> e.state() == PrState.NOT_READY)
                .map(e -> staleDeadline(state, e)),
            state.runs().live().stream().map(r -> Verdict.deadline(r, timeout)),
            state.runs().live().stream().map(r -> Verdict.settled(r, rule)),
            Stream.of(
                RunPlanner.batchDeadline(state),
                LandingGate.nextChange(state, now),
                RunPlanner.testResultsDeadline(state, now),
                RunPlanner.spanBarrierDeadline(state, spanBarrier, now)))
        .flatMap(s -> s)
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
