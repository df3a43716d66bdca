package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.PrState;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * When the queue next needs a {@code Tick}: the earliest time a planning rule ({@link
 * PlanningRules}) would decide something without any other command.
 */
final class Planner {
  private final Duration settle;

  /**
   * @param settle {@code TRAINYARD_STATUS_SETTLE} (see {@link CheckRule.Reported})
   */
  Planner(Duration settle) {
    this.settle = settle;
  }

  /**
   * The earliest stale timeout of a not-ready PR, testing timeout of a live run, end of a green
   * run's settle time, end of a partial batch's wait, change of the landing gate (a merge window
   * opening or closing, a freeze's end), or end of a red run's wait for its test results. A
   * parallel PR's span barrier needs no Tick of its own: the lanes it waits for are busy, and the
   * results of their runs are commands that plan again.
   */
  Optional<Instant> nextDeadline(QueueAggregate state, Instant now) {
    long timeout = state.settings().testingTimeoutMinutes();
    CheckRule rule = CheckRule.of(state, settle);
    return Stream.of(
            state.entries().stream()
                .filter(e -> e.state() == PrState.NOT_READY)
                .map(e -> CancelStale.staleDeadline(state, e)),
            state.runs().live().stream().map(r -> Verdict.deadline(r, timeout)),
            state.runs().live().stream().map(r -> Verdict.settled(r, rule)),
            Stream.of(
                StartRuns.batchDeadline(state),
                FollowLandingGate.nextChange(state, now),
                ConcludeHeads.testResultsDeadline(state, now)))
        .flatMap(s -> s)
        .flatMap(Optional::stream)
        .min(Instant::compareTo);
  }
}
