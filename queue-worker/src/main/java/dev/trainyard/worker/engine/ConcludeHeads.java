package dev.trainyard.worker.engine;

import dev.trainyard.worker.engine.QueueEvent.FlakyFailureForgiven;
import dev.trainyard.worker.engine.QueueEvent.TestRunBisected;
import dev.trainyard.worker.engine.QueueEvent.TestRunCancelled;
import dev.trainyard.worker.engine.QueueEvent.TestRunFailed;
import dev.trainyard.worker.engine.QueueEvent.TestRunRescued;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Red heads fail (a batch is bisected) or are rescued by a green run behind them. */
final class ConcludeHeads implements PlanningRule {
  @Override
  public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
    return concludeHeads(state, ctx);
  }

  /**
   * Concludes the heads of the chain: rescues red runs a green run behind vindicates ({@code
   * canOptimisticallyMerge}); a red head whose {@code pendingFailureDepth} runs behind have
   * finished fails (a batch is bisected instead) and the runs behind are re-planned.
   */
  static List<QueueEvent> concludeHeads(QueueAggregate state, CommandContext ctx) {
    List<TestRun> chain = state.runs().chain();
    for (TestRun run : chain) {
      if (Lanes.isHead(state, run)) {
        List<QueueEvent> events = concludeLane(state, Lanes.from(chain, run), ctx, false, null);
        if (!events.isEmpty()) {
          return events;
        }
      }
    }
    return List.of();
  }

  /**
   * Rescues red runs of a lane that a green run built on them vindicates, or fails the lane's red
   * head once the runs behind it that {@code pendingFailureDepth} waits for have finished. {@code
   * headJustRed}: the head's verdict is red ({@code reason}) but not yet recorded.
   */
  static List<QueueEvent> concludeLane(
      QueueAggregate state,
      List<TestRun> chain,
      CommandContext ctx,
      boolean headJustRed,
      String reason) {
    if (state.settings().canOptimisticallyMerge()) {
      if (headJustRed) {
        // a run behind that already passed may vindicate it: record the red first, then rescue
        boolean passedBehind = chain.stream().skip(1).anyMatch(r -> r.state() == RunState.PASSED);
        if (passedBehind) {
          return List.of();
        }
      } else {
        List<QueueEvent> rescued = rescue(state, chain, ctx.now());
        if (!rescued.isEmpty()) {
          return rescued;
        }
      }
    }
    TestRun head = chain.get(0);
    boolean red = headJustRed || head.state() == RunState.RED;
    if (!red || !behindFinished(chain, state.settings().pendingFailureDepth())) {
      return List.of();
    }
    String why = headJustRed ? reason : head.failureReason();
    if (awaitsTestResults(state, head, why, headJustRed, ctx.now())) {
      return List.of();
    }
    if (forgivable(state, head, why)) {
      List<QueueEvent> events = new ArrayList<>();
      events.add(new FlakyFailureForgiven(head.id(), ctx.now()));
      String changed = Reasons.PREREQUISITE_MERGE_ITEM_CHANGED;
      events.add(new TestRunCancelled(head.id(), Reasons.TESTS_RESTARTED_FLAKY, ctx.now()));
      events.addAll(RunPlanner.cancelFrom(chain, 1, changed, changed, ctx.now()));
      return events;
    }
    List<QueueEvent> events = new ArrayList<>(failOrBisect(state, head, why, ctx));
    String behind = Reasons.PREREQUISITE_MERGE_ITEM_FAILED;
    events.addAll(RunPlanner.cancelFrom(chain, 1, behind, behind, ctx.now()));
    return events;
  }

  /**
   * A red head (or bisection run) whose queue's CI uploads test results waits up to {@link
   * TestFailures#GRACE} for those of its head: the status and the upload reach the queue by
   * different roads, and the status often comes first.
   */
  static boolean awaitsTestResults(
      QueueAggregate state, TestRun head, String reason, boolean justRed, Instant now) {
    return Reasons.TEST_RUN_REQUIRED_STATUS_FAILED.equals(reason)
        && head.testFailures() == null
        && TestFailures.uploadsResults(state.history(), now)
        && (justRed || now.isBefore(head.stateChangedAt().plus(TestFailures.GRACE)));
  }

  /**
   * When a red head or bisection run waiting for its test results stops waiting; empty when none
   * waits (a wait that is over, or a red run that is not a head, asks for nothing: no Tick would
   * change it).
   */
  static Optional<Instant> testResultsDeadline(QueueAggregate state, Instant now) {
    if (!TestFailures.uploadsResults(state.history(), now)) {
      return Optional.empty();
    }
    return state.runs().live().stream()
        .filter(r -> r.state() == RunState.RED && r.testFailures() == null)
        .filter(r -> Reasons.TEST_RUN_REQUIRED_STATUS_FAILED.equals(r.failureReason()))
        .filter(r -> r.bisection() || Lanes.isHead(state, r))
        .map(r -> r.stateChangedAt().plus(TestFailures.GRACE))
        .filter(at -> at.isAfter(now))
        .min(Instant::compareTo);
  }

  /**
   * A red run is tested once more instead of failing when its required statuses failed, the
   * flaky-tests service's uploads for its head found only quarantined or excused flaky tests among
   * the failures, and none of its PRs had such a second chance already (SCHEDULING.md "Flake-aware
   * failures").
   */
  static boolean forgivable(QueueAggregate state, TestRun run, String reason) {
    return Reasons.TEST_RUN_REQUIRED_STATUS_FAILED.equals(reason)
        && run.testFailures() == TestFailures.FLAKY_ONLY
        && run.entryIds().stream()
            .map(state::entry)
            .flatMap(Optional::stream)
            .noneMatch(Entry::flakyRetried);
  }

  /**
   * A green run whose runs ahead (those it was built on) are all decided vindicates the red ones
   * among them: it contains their changes, so their red was a flake.
   */
  static List<QueueEvent> rescue(QueueAggregate state, List<TestRun> lane, Instant now) {
    for (TestRun run : lane) {
      if (run.state() != RunState.PASSED) {
        continue;
      }
      List<TestRun> ahead = Lanes.ancestors(state, run);
      if (ahead.stream().allMatch(r -> r.state() == RunState.PASSED || r.state() == RunState.RED)) {
        List<QueueEvent> events = new ArrayList<>();
        for (TestRun red : ahead) {
          if (red.state() == RunState.RED && red.headSha() != null) {
            events.add(0, new TestRunRescued(red.id(), run.id(), now));
          }
        }
        if (!events.isEmpty()) {
          return events;
        }
      }
    }
    return List.of();
  }

  /** The first {@code depth} runs behind the head (as many as there are) have a verdict. */
  static boolean behindFinished(List<TestRun> chain, long depth) {
    int last = (int) Math.min(chain.size() - 1, depth);
    for (TestRun run : chain.subList(1, 1 + Math.max(0, last))) {
      if (run.state() != RunState.PASSED && run.state() != RunState.RED) {
        return false;
      }
    }
    return true;
  }

  /**
   * A red bisection run whose failed tests were all quarantined or excused by a flake on record,
   * and none of whose PRs had that second chance before, is tested again: one new bisection run of
   * the same PRs, split from the same run, built and landing where it was, takes its place
   * (SCHEDULING.md "Flake-aware failures").
   */
  static List<QueueEvent> testHalfAgain(QueueAggregate state, TestRun run, CommandContext ctx) {
    TestRun again =
        TestRun.again(ctx.derivedId("run/" + state.nextSequence()).toString(), run, ctx.now());
    return List.of(
        new FlakyFailureForgiven(run.id(), ctx.now()),
        new TestRunBisected(run.id(), Reasons.TESTS_RESTARTED_FLAKY, List.of(again), ctx.now()));
  }

  /**
   * A red single-PR run fails its PR; a red batch is split in two halves instead, in order: by
   * count, or, when any of its PRs carries a predicted risk the queue trusts ({@link
   * Batches#risk}), where the first half holds as close to half of the batch's risk as it can, so
   * the likely culprit is isolated sooner (SCHEDULING.md "Predicted risk").
   */
  static List<QueueEvent> failOrBisect(
      QueueAggregate state, TestRun run, String reason, CommandContext ctx) {
    if (!run.isBatch()) {
      return List.of(new TestRunFailed(run.id(), reason, ctx.now()));
    }
    List<TestedPr> prs = run.prs();
    int middle = splitAt(state, prs);
    long sequence = state.nextSequence();
    // halves of halves are built where the first batch was, and would land where it would have
    String landsOn = run.bisection() ? run.landsOn() : Effects.expectedTarget(state, run);
    List<TestRun> halves =
        List.of(
            TestRun.half(
                ctx.derivedId("run/" + sequence).toString(),
                prs.subList(0, middle),
                run,
                landsOn,
                ctx.now()),
            TestRun.half(
                ctx.derivedId("run/" + (sequence + 1)).toString(),
                prs.subList(middle, prs.size()),
                run,
                landsOn,
                ctx.now()));
    return List.of(new TestRunBisected(run.id(), reason, halves, ctx.now()));
  }

  /**
   * How many of a red batch's {@code prs} its first half holds (1 to all but one): the count that
   * puts half of their predicted risk on each side, the middle on a tie; by count when none has a
   * prediction the queue trusts ({@link Batches#risk}) or all are predicted to pass.
   */
  static int splitAt(QueueAggregate state, List<TestedPr> prs) {
    int middle = (prs.size() + 1) / 2;
    List<Entry> entries =
        prs.stream().map(p -> state.entry(p.entryId())).flatMap(Optional::stream).toList();
    if (entries.size() != prs.size()
        || entries.stream().allMatch(e -> Batches.risk(state, e) == null)) {
      return middle;
    }
    double[] risks = Batches.risks(state, entries);
    double total = Arrays.stream(risks).sum();
    if (total <= 0) {
      return middle;
    }
    double before = 0;
    int best = middle;
    double bestGap = Double.MAX_VALUE;
    for (int i = 1; i < risks.length; i++) {
      before += risks[i - 1];
      double gap = Math.abs(total / 2 - before);
      boolean tie = Math.abs(gap - bestGap) <= 1e-12 * total;
      if ((gap < bestGap && !tie) || (tie && Math.abs(i - middle) < Math.abs(best - middle))) {
        best = i;
        bestGap = Math.min(gap, bestGap);
      }
    }
    return best;
  }
}
