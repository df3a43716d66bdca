package dev.trainyard.worker.engine;

import dev.trainyard.common.command.CommitState;
import dev.trainyard.common.command.RequiredCheck;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What a live run's results say so far, under the queue's {@link CheckRule}. A run without a
 * conclusion after {@code testingTimeoutMinutes} (counted from its start, building included) is red
 * with {@code TEST_RUN_TIMEOUT}.
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

  static Verdict of(TestRun run, CheckRule rule, long timeoutMinutes, Instant now) {
    if (Reasons.START_TEST_RUN_MERGE_CONFLICT.equals(run.failureReason())) {
      return red(Reasons.START_TEST_RUN_MERGE_CONFLICT);
    }
    Verdict fromStatuses =
        run.state() == RunState.TESTING ? fromStatuses(run.statuses(), rule, now) : PENDING;
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

  /**
   * When a testing run whose reports are all green becomes green under a settle time: the Tick that
   * lets it land. Empty when it waits for anything else.
   */
  static Optional<Instant> settled(TestRun run, CheckRule rule) {
    if (run.state() != RunState.TESTING
        || !(rule instanceof CheckRule.Reported reported)
        || reported.settle().isZero()
        || !allGreen(run.statuses())) {
      return Optional.empty();
    }
    return CheckRule.lastConclusion(run.statuses()).map(at -> at.plus(reported.settle()));
  }

  private static Verdict fromStatuses(List<RunStatus> statuses, CheckRule rule, Instant now) {
    if (rule instanceof CheckRule.Unknown) {
      return PENDING;
    }
    if (rule instanceof CheckRule.Named named) {
      boolean allGreen = true;
      for (RequiredCheck check : named.checks()) {
        Optional<RunStatus> status = CheckRule.report(statuses, check);
        if (status.isPresent() && status.get().state().isRed()) {
          return red(Reasons.TEST_RUN_REQUIRED_STATUS_FAILED);
        }
        allGreen &= status.isPresent() && status.get().state() == CommitState.SUCCESS;
      }
      return allGreen ? GREEN : PENDING;
    }
    if (statuses.stream().anyMatch(s -> s.state().isRed())) {
      return red(Reasons.TEST_RUN_REQUIRED_STATUS_FAILED);
    }
    Duration settle = ((CheckRule.Reported) rule).settle();
    boolean settled =
        CheckRule.lastConclusion(statuses).filter(at -> !at.plus(settle).isAfter(now)).isPresent();
    return allGreen(statuses) && settled ? GREEN : PENDING;
  }

  private static boolean allGreen(List<RunStatus> statuses) {
    return !statuses.isEmpty() && statuses.stream().allMatch(s -> s.state() == CommitState.SUCCESS);
  }
}
