package dev.trainyard.worker.engine;

import dev.trainyard.common.command.CommitState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What a live run's results say so far. Required statuses are the queue's {@code requiredStatuses};
 * when it names none (null or empty), every reported context must succeed and at least one must
 * have been reported. A run without a conclusion after {@code testingTimeoutMinutes} (counted from
 * its start, building included) is red with {@code TEST_RUN_TIMEOUT}.
 */
record Verdict(Outcome outcome, String reason) {
  enum Outcome {
    PENDING,
    GREEN,
    RED
  }

  static final Verdict PENDING = new Verdict(Outcome.PENDING, null);
  static final Verdict GREEN = new Verdict(Outcome.GREEN, null);

  static Verdict red(String reason) {
    return new Verdict(Outcome.RED, reason);
  }

  static Verdict of(TestRun run, List<String> required, long timeoutMinutes, Instant now) {
    if (Reasons.START_TEST_RUN_MERGE_CONFLICT.equals(run.failureReason())) {
      return red(Reasons.START_TEST_RUN_MERGE_CONFLICT);
    }
    Verdict fromStatuses =
        run.state() == RunState.TESTING ? fromStatuses(run.statuses(), required) : PENDING;
    if (fromStatuses.outcome() != Outcome.PENDING) {
      return fromStatuses;
    }
    return deadline(run, timeoutMinutes).filter(d -> !d.isAfter(now)).isPresent()
        ? red(Reasons.TEST_RUN_TIMEOUT)
        : PENDING;
  }

  /** When the run times out, if it can (building or testing, and the queue has a timeout). */
  static Optional<Instant> deadline(TestRun run, long timeoutMinutes) {
    boolean undecided = run.state() == RunState.BUILDING || run.state() == RunState.TESTING;
    return undecided && timeoutMinutes > 0
        ? Optional.of(run.createdAt().plus(Duration.ofMinutes(timeoutMinutes)))
        : Optional.empty();
  }

  private static Verdict fromStatuses(List<RunStatus> statuses, List<String> required) {
    if (required == null || required.isEmpty()) {
      if (statuses.stream().anyMatch(s -> s.state().isRed())) {
        return red(Reasons.TEST_RUN_REQUIRED_STATUS_FAILED);
      }
      boolean allGreen =
          !statuses.isEmpty() && statuses.stream().allMatch(s -> s.state() == CommitState.SUCCESS);
      return allGreen ? GREEN : PENDING;
    }
    boolean allGreen = true;
    for (String context : required) {
      Optional<RunStatus> status =
          statuses.stream().filter(s -> s.context().equals(context)).findFirst();
      if (status.isPresent() && status.get().state().isRed()) {
        return red(Reasons.TEST_RUN_REQUIRED_STATUS_FAILED);
      }
      allGreen &= status.isPresent() && status.get().state() == CommitState.SUCCESS;
    }
    return allGreen ? GREEN : PENDING;
  }
}
