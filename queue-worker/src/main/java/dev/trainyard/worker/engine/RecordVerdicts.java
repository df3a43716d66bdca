package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.OptimizationMode;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.worker.engine.QueueEvent.BisectionHalfPassed;
import dev.trainyard.worker.engine.QueueEvent.TestRunCleared;
import dev.trainyard.worker.engine.QueueEvent.TestRunPassed;
import dev.trainyard.worker.engine.QueueEvent.TestRunWentRed;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** A run's statuses decide it: passed, red, a green half landing or cleared. */
final class RecordVerdicts implements PlanningRule {
  private final Duration settle;

  RecordVerdicts(Duration settle) {
    this.settle = settle;
  }

  @Override
  public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
    return verdicts(state, ctx, settle);
  }

  /**
   * Records the first verdict a live run has: green → passed (a bisection run: lands as tested or
   * is cleared, and with {@code bisection_skip_redundant_tests} its undecided sibling is known
   * red); red → pending failure, or at once what concluding the head decides when nothing can
   * change it (a bisection run: red while it waits for its test results, then as {@link #redHalf}).
   * {@code settle}: how long the plain-git rule waits for a new context after the last one
   * concluded.
   */
  static List<QueueEvent> verdicts(QueueAggregate state, CommandContext ctx, Duration settle) {
    for (TestRun run : state.runs().bisecting()) {
      if (run.state() == RunState.RED
          && !ConcludeHeads.awaitsTestResults(state, run, run.failureReason(), false, ctx.now())) {
        return redHalf(state, run, run.failureReason(), ctx);
      }
    }
    CheckRule rule = CheckRule.of(state, settle);
    for (TestRun run : state.runs().live()) {
      Verdict verdict = verdict(state, run, rule, ctx.now());
      if (verdict.outcome() == Verdict.Outcome.GREEN) {
        return run.bisection()
            ? greenHalf(state, run, ctx)
            : List.of(new TestRunPassed(run.id(), ctx.now()));
      }
      if (verdict.outcome() == Verdict.Outcome.RED) {
        if (run.direct()) {
          return List.of(
              new QueueEvent.DirectMergeDeclined(
                  run.id(), Reasons.DIRECT_MERGE_NOT_POSSIBLE, ctx.now()));
        }
        if (run.bisection()) {
          return ConcludeHeads.awaitsTestResults(state, run, verdict.reason(), true, ctx.now())
              ? List.of(new TestRunWentRed(run.id(), verdict.reason(), ctx.now()))
              : redHalf(state, run, verdict.reason(), ctx);
        }
        List<QueueEvent> now =
            Lanes.isHead(state, run)
                ? ConcludeHeads.concludeLane(
                    state, Lanes.from(state.runs().chain(), run), ctx, true, verdict.reason())
                : List.of();
        return now.isEmpty()
            ? List.of(new TestRunWentRed(run.id(), verdict.reason(), ctx.now()))
            : now;
      }
    }
    return List.of();
  }

  /**
   * A red bisection run, once it waits no longer for its test results ({@link
   * ConcludeHeads#awaitsTestResults}, as a red head does): tested again when only flaky tests
   * failed, else it fails its PR or is split.
   */
  private static List<QueueEvent> redHalf(
      QueueAggregate state, TestRun run, String reason, CommandContext ctx) {
    return ConcludeHeads.forgivable(state, run, reason)
        ? ConcludeHeads.testHalfAgain(state, run, ctx)
        : ConcludeHeads.failOrBisect(state, run, reason, ctx);
  }

  /** A run that is still testing goes red when one of its PRs no longer merges cleanly. */
  static Verdict verdict(QueueAggregate state, TestRun run, CheckRule rule, Instant now) {
    if (!run.isUndecided()) {
      return Verdict.PENDING;
    }
    boolean conflicts =
        run.entryIds().stream()
            .map(state::entry)
            .flatMap(Optional::stream)
            .anyMatch(e -> e.mergeability() == Mergeability.NOT_MERGEABLE);
    if (conflicts) {
      return Verdict.red(Reasons.START_TEST_RUN_MERGE_CONFLICT);
    }
    return Verdict.of(run, rule, state.settings().testingTimeoutMinutes(), now);
  }

  /**
   * A green bisection run lands as it was tested when it may ({@link #landsAsTested}): it joins the
   * chain as its passed head. Otherwise it clears its PRs; when the other half was green too,
   * nothing explains the split run's red, and the PRs are isolated. When skipping redundant tests
   * is on, the other half probably holds the cause: a half of several PRs is split without a run of
   * its own. A single PR is never failed on that inference: the split run's red may have been a
   * flake, or two PRs that break only together; it is failed only by a red run in which it is the
   * only PR not proven good (SCHEDULING.md "Batching and bisection"), so it is tested.
   */
  static List<QueueEvent> greenHalf(QueueAggregate state, TestRun run, CommandContext ctx) {
    List<QueueEvent> events = new ArrayList<>();
    if (landsAsTested(state, run)) {
      events.add(new BisectionHalfPassed(run.id(), ctx.now()));
    } else {
      boolean siblingGreen =
          Stream.concat(state.runs().live().stream(), state.runs().finished().stream())
              .filter(
                  r -> !r.id().equals(run.id()) && run.predecessorId().equals(r.predecessorId()))
              .anyMatch(r -> r.state() == RunState.CLEARED || r.isPromoted());
      events.add(new TestRunCleared(run.id(), siblingGreen, ctx.now()));
    }
    if (state.settings().optimizationMode() != OptimizationMode.BISECTION_SKIP_REDUNDANT_TESTS) {
      return events;
    }
    String splitReason =
        state.runs().any(run.predecessorId()).map(TestRun::failureReason).orElse(null);
    state.runs().bisecting().stream()
        .filter(r -> r.predecessorId().equals(run.predecessorId()) && !r.id().equals(run.id()))
        .filter(r -> r.state() == RunState.WAITING || r.isUndecided())
        .filter(TestRun::isBatch)
        .findFirst()
        .ifPresent(
            sibling ->
                events.addAll(
                    ConcludeHeads.failOrBisect(
                        state,
                        sibling,
                        splitReason != null ? splitReason : Reasons.TEST_RUN_REQUIRED_STATUS_FAILED,
                        ctx)));
    return events;
  }

  /**
   * A green half lands as it was tested when what it was tested on is what it would land on:
   * nothing landed since its batch was split (the last landing is where the batch would have
   * landed), and no chain run waits, which it would overtake or whose base it would move. Single
   * mode only: parallel mode does not batch.
   */
  static boolean landsAsTested(QueueAggregate state, TestRun half) {
    Landed landed = state.runs().landed();
    return state.settings().mode() != QueueMode.PARALLEL
        && half.landsOn() != null
        && state.runs().chain().isEmpty()
        && (landed == null || landed.targetSha().equals(half.landsOn()));
  }
}
