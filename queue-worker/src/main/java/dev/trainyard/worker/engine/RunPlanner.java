package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.DirectMergeMode;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.OptimizationMode;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.QueueState;
import dev.trainyard.worker.engine.QueueEvent.BisectionHalfPassed;
import dev.trainyard.worker.engine.QueueEvent.BisectionRunStarted;
import dev.trainyard.worker.engine.QueueEvent.FlakyFailureForgiven;
import dev.trainyard.worker.engine.QueueEvent.ModeSwitched;
import dev.trainyard.worker.engine.QueueEvent.TestRunBisected;
import dev.trainyard.worker.engine.QueueEvent.TestRunCancelled;
import dev.trainyard.worker.engine.QueueEvent.TestRunCleared;
import dev.trainyard.worker.engine.QueueEvent.TestRunFailed;
import dev.trainyard.worker.engine.QueueEvent.TestRunPassed;
import dev.trainyard.worker.engine.QueueEvent.TestRunRescued;
import dev.trainyard.worker.engine.QueueEvent.TestRunStarted;
import dev.trainyard.worker.engine.QueueEvent.TestRunWentRed;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The run rules of SCHEDULING.md "Planning rule" ({@link PlanningRules} orders them, one class
 * each): drop runs that lost a PR or the run they were built on, or whose PR the host now holds
 * while undecided; record verdicts; conclude the heads of the chain; finish a mode switch; let an
 * urgent PR skip the line; start bisection runs; start runs. Landing passed runs is the shell's
 * effect ({@link Effects}), in chain order.
 */
final class RunPlanner {
  private RunPlanner() {}

  /** When a partial batch stops waiting for more PRs, if one waits. */
  static Optional<Instant> batchDeadline(QueueAggregate state) {
    return canStart(state)
            && state.settings().mode() != QueueMode.PARALLEL
            && slotFree(state.runs().chain(), window(state))
        ? Batches.deadline(state, waiting(state))
        : Optional.empty();
  }

  /** Cancels {@code runs[from]} with {@code firstReason} and every run behind it. */
  static List<QueueEvent> cancelFrom(
      List<TestRun> runs, int from, String firstReason, String restReason, Instant now) {
    List<QueueEvent> events = new ArrayList<>();
    for (int i = from; i < runs.size(); i++) {
      events.add(new TestRunCancelled(runs.get(i).id(), i == from ? firstReason : restReason, now));
    }
    return events;
  }

  /**
   * Cancels the runs that lost a PR or the run they were built on, whose PR the host now holds (a
   * draft, a review dismissed) while undecided, or whose PR now depends on one not built under it,
   * with every run built on them.
   */
  static List<QueueEvent> dropBrokenRuns(QueueAggregate state, Instant now) {
    String reason = Reasons.PREREQUISITE_MERGE_ITEM_CHANGED;
    for (TestRun run : state.runs().bisecting()) {
      if (lostPr(state, run) || heldPr(state, run)) {
        return List.of(new TestRunCancelled(run.id(), reason, now));
      }
    }
    List<TestRun> chain = state.runs().chain();
    for (TestRun run : chain) {
      if (lostPr(state, run)
          || lostBase(state, run)
          || heldPr(state, run)
          || missesDependency(state, run)) {
        return cancelAll(Lanes.from(chain, run), reason, now);
      }
    }
    return List.of();
  }

  /**
   * A PR of the run depends on one that is neither landed nor built under it (in a run it was built
   * on, or ahead of it in this run): a dependency added by a resubmit or a {@code Depends-On} edit
   * while it was tested. The run is stopped, and the PR waits for its dependency.
   */
  private static boolean missesDependency(QueueAggregate state, TestRun run) {
    List<Long> under = new ArrayList<>(run.dependentPrs());
    for (TestedPr pr : run.prs()) {
      Optional<Entry> e = state.entry(pr.entryId());
      if (e.isPresent() && !under.containsAll(Dependencies.outstanding(state, e.get()))) {
        return true;
      }
      under.add(pr.number());
    }
    return false;
  }

  /**
   * The host holds one of the run's PRs (made a draft, a review dismissed) before it passed: the
   * run is stopped and its PRs wait, not ready, instead of failing as a conflict. A run that passed
   * lands as tested; the host refuses it if it must.
   */
  private static boolean heldPr(QueueAggregate state, TestRun run) {
    return run.isUndecided()
        && run.entryIds().stream()
            .map(state::entry)
            .flatMap(Optional::stream)
            .anyMatch(e -> e.pr().hold() != null);
  }

  /**
   * The run it was built on left without landing. Single mode knows the last landing only; in
   * parallel mode other lanes land in between, so a base is lost when it concluded otherwise.
   */
  private static boolean lostBase(QueueAggregate state, TestRun run) {
    String base = run.predecessorId();
    Landed landed = state.runs().landed();
    if (base == null
        || run.isPromoted()
        || state.runs().live(base).isPresent()
        || (landed != null && landed.runId().equals(base))) {
      return false;
    }
    if (state.settings().mode() != QueueMode.PARALLEL) {
      return true;
    }
    return state.runs().any(base).map(r -> r.state() != RunState.SUCCEEDED).orElse(false);
  }

  private static List<QueueEvent> cancelAll(List<TestRun> runs, String reason, Instant now) {
    return cancelFrom(runs, 0, reason, reason, now);
  }

  private static boolean lostPr(QueueAggregate state, TestRun run) {
    return run.entryIds().stream().anyMatch(id -> state.entry(id).isEmpty());
  }

  /**
   * Records the first verdict a live run has: green → passed (a bisection run: lands as tested or
   * is cleared, and with {@code bisection_skip_redundant_tests} its undecided sibling is known
   * red); red → pending failure, or at once what concluding the head decides when nothing can
   * change it. {@code settle}: how long the plain-git rule waits for a new context after the last
   * one concluded.
   */
  static List<QueueEvent> verdicts(QueueAggregate state, CommandContext ctx, Duration settle) {
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
          return failOrBisect(state, run, verdict.reason(), ctx);
        }
        List<QueueEvent> now =
            Lanes.isHead(state, run)
                ? concludeLane(
                    state, Lanes.from(state.runs().chain(), run), ctx, true, verdict.reason())
                : List.of();
        return now.isEmpty()
            ? List.of(new TestRunWentRed(run.id(), verdict.reason(), ctx.now()))
            : now;
      }
    }
    return List.of();
  }

  /** A run that is still testing goes red when one of its PRs no longer merges cleanly. */
  private static Verdict verdict(QueueAggregate state, TestRun run, CheckRule rule, Instant now) {
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
  private static List<QueueEvent> concludeLane(
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
      events.addAll(cancelFrom(chain, 1, changed, changed, ctx.now()));
      return events;
    }
    List<QueueEvent> events = new ArrayList<>(failOrBisect(state, head, why, ctx));
    String behind = Reasons.PREREQUISITE_MERGE_ITEM_FAILED;
    events.addAll(cancelFrom(chain, 1, behind, behind, ctx.now()));
    return events;
  }

  /**
   * A red head whose queue's CI uploads test results waits up to {@link TestFailures#GRACE} for
   * those of its head: the status and the upload reach the queue by different roads, and the status
   * often comes first.
   */
  private static boolean awaitsTestResults(
      QueueAggregate state, TestRun head, String reason, boolean justRed, Instant now) {
    return Reasons.TEST_RUN_REQUIRED_STATUS_FAILED.equals(reason)
        && head.testFailures() == null
        && TestFailures.uploadsResults(state.history(), now)
        && (justRed || now.isBefore(head.stateChangedAt().plus(TestFailures.GRACE)));
  }

  /**
   * When a red head waiting for its test results stops waiting; empty when none waits (a wait that
   * is over, or a red run that is not a head, asks for nothing: no Tick would change it).
   */
  static Optional<Instant> testResultsDeadline(QueueAggregate state, Instant now) {
    if (!TestFailures.uploadsResults(state.history(), now)) {
      return Optional.empty();
    }
    return state.runs().chain().stream()
        .filter(r -> r.state() == RunState.RED && r.testFailures() == null)
        .filter(r -> Reasons.TEST_RUN_REQUIRED_STATUS_FAILED.equals(r.failureReason()))
        .filter(r -> Lanes.isHead(state, r))
        .map(r -> r.stateChangedAt().plus(TestFailures.GRACE))
        .filter(at -> at.isAfter(now))
        .min(Instant::compareTo);
  }

  /**
   * A red run is tested once more instead of failing when its required statuses failed, the
   * flaky-tests service's uploads for its head found only quarantined or known-flaky tests among
   * the failures, and none of its PRs had such a second chance already (SCHEDULING.md "Flake-aware
   * failures").
   */
  private static boolean forgivable(QueueAggregate state, TestRun run, String reason) {
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
  private static List<QueueEvent> rescue(QueueAggregate state, List<TestRun> lane, Instant now) {
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
  private static boolean behindFinished(List<TestRun> chain, long depth) {
    int last = (int) Math.min(chain.size() - 1, depth);
    for (TestRun run : chain.subList(1, 1 + Math.max(0, last))) {
      if (run.state() != RunState.PASSED && run.state() != RunState.RED) {
        return false;
      }
    }
    return true;
  }

  /** A red single-PR run fails its PR; a red batch is split in two halves instead. */
  private static List<QueueEvent> failOrBisect(
      QueueAggregate state, TestRun run, String reason, CommandContext ctx) {
    if (!run.isBatch()) {
      return List.of(new TestRunFailed(run.id(), reason, ctx.now()));
    }
    List<TestedPr> prs = run.prs();
    int middle = (prs.size() + 1) / 2;
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
   * A green bisection run lands as it was tested when it may ({@link #landsAsTested}): it joins the
   * chain as its passed head. Otherwise it clears its PRs; when the other half was green too,
   * nothing explains the split run's red, and the PRs are isolated. When skipping redundant tests
   * is on, the other half probably holds the cause: a half of several PRs is split without a run of
   * its own. A single PR is never failed on that inference: the split run's red may have been a
   * flake, or two PRs that break only together; it is failed only by a red run in which it is the
   * only PR not proven good (SCHEDULING.md "Batching and bisection"), so it is tested.
   */
  private static List<QueueEvent> greenHalf(QueueAggregate state, TestRun run, CommandContext ctx) {
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
                    failOrBisect(
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
  private static boolean landsAsTested(QueueAggregate state, TestRun half) {
    Landed landed = state.runs().landed();
    return state.settings().mode() != QueueMode.PARALLEL
        && half.landsOn() != null
        && state.runs().chain().isEmpty()
        && (landed == null || landed.targetSha().equals(half.landsOn()));
  }

  /** A mode switch waiting for the runs in flight applies once none is left. */
  static List<QueueEvent> finishModeSwitch(QueueAggregate state) {
    return state.switchingTo() != null && state.runs().live().isEmpty()
        ? List.of(new ModeSwitched(state.switchingTo()))
        : List.of();
  }

  /** Starting is allowed while running or draining, and not while a mode switch waits. */
  static boolean canStart(QueueAggregate state) {
    return (state.state() == QueueState.RUNNING || state.state() == QueueState.DRAINING)
        && state.switchingTo() == null;
  }

  /**
   * An urgent PR waiting for a run goes to the front: the first run behind it that has not passed,
   * and every run built on that one, are cancelled and re-planned. The runs holding what it depends
   * on stay, and so does every run ahead of them: it is built on them (cancelling one would make it
   * wait for its dependency, which would start again, and the line would be skipped again). In
   * parallel mode only a run of a lane it shares is in its way: one of another lane would start
   * again at once, while the urgent PR may still wait for its own lanes.
   */
  static List<QueueEvent> skipTheLine(QueueAggregate state, Instant now) {
    Optional<Entry> urgent = waiting(state).stream().filter(Entry::skipTheLine).findFirst();
    if (urgent.isEmpty()) {
      return List.of();
    }
    List<TestRun> chain = state.runs().chain();
    List<Long> dependencies = urgent.get().unlandedDependencies();
    int kept = 0;
    for (int i = 0; i < chain.size(); i++) {
      if (chain.get(i).prs().stream().anyMatch(p -> dependencies.contains(p.number()))) {
        kept = i + 1;
      }
    }
    boolean parallel = state.settings().mode() == QueueMode.PARALLEL;
    for (TestRun run : chain.subList(kept, chain.size())) {
      Entry first = state.entry(run.entryIds().get(0)).orElseThrow();
      boolean behind = QueueAggregate.QUEUE_ORDER.compare(urgent.get(), first) < 0;
      if (behind
          && run.state() != RunState.PASSED
          && (!parallel || sharesLane(state, run, urgent.get()))) {
        return cancelAll(Lanes.from(chain, run), Reasons.SKIP_THE_LINE_INTERRUPTED, now);
      }
    }
    return List.of();
  }

  private static boolean sharesLane(QueueAggregate state, TestRun run, Entry e) {
    return run.entryIds().stream()
        .map(state::entry)
        .flatMap(Optional::stream)
        .anyMatch(x -> Lanes.overlaps(x, e));
  }

  /**
   * Starts the oldest waiting bisection run while fewer than {@code bisectionConcurrency} run. When
   * skipping redundant tests, a second half waits for the first: if that one passes, the second is
   * known red without a run of its own.
   */
  static List<QueueEvent> startBisection(QueueAggregate state, Instant now) {
    List<TestRun> bisecting = state.runs().bisecting();
    long running = bisecting.stream().filter(r -> r.state() != RunState.WAITING).count();
    if (running >= Math.max(1, state.settings().bisectionConcurrency())) {
      return List.of();
    }
    boolean sequential =
        state.settings().optimizationMode() == OptimizationMode.BISECTION_SKIP_REDUNDANT_TESTS;
    return bisecting.stream()
        .filter(r -> r.state() == RunState.WAITING)
        .filter(r -> !sequential || firstHalfDecided(bisecting, r))
        .findFirst()
        .<List<QueueEvent>>map(r -> List.of(new BisectionRunStarted(r.id(), now)))
        .orElse(List.of());
  }

  /**
   * No half split from the same run is ahead of {@code half}: it is the first, or the first left.
   */
  private static boolean firstHalfDecided(List<TestRun> bisecting, TestRun half) {
    for (TestRun r : bisecting) {
      if (r.id().equals(half.id())) {
        return true;
      }
      if (r.predecessorId().equals(half.predecessorId())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Starts one run for the next waiting PRs when a slot is free: in single mode on top of the last
   * chain run (a batch when batching); in parallel mode see {@link #startParallel}.
   */
  static List<QueueEvent> start(QueueAggregate state, CommandContext ctx, Duration spanBarrier) {
    if (state.settings().mode() == QueueMode.PARALLEL) {
      return startParallel(state, ctx, spanBarrier);
    }
    if (!slotFree(state.runs().chain(), window(state))) {
      return List.of();
    }
    Optional<TestRun> direct = direct(state, ctx, waiting(state), state.runs().chain());
    if (direct.isPresent()) {
      return List.of(new TestRunStarted(direct.get()));
    }
    Batches.Next next = Batches.next(state, waiting(state));
    if (!next.startsAt(ctx.now())) {
      return List.of();
    }
    List<TestRun> chain = state.runs().chain();
    TestRun predecessor = chain.isEmpty() ? null : chain.get(chain.size() - 1);
    return List.of(new TestRunStarted(run(state, ctx, next.entries(), predecessor)));
  }

  /**
   * The first waiting PR that can start, in queue order, alone: on the latest run it overlaps (a
   * new lane when it overlaps none). A PR that overlaps two lanes, or a lane without a free slot,
   * waits, and so does every PR behind it that overlaps it, so none overtakes a PR it depends on. A
   * PR that has waited {@code spanBarrier} for lanes it spans becomes a barrier: no PR behind it
   * joins those lanes, so they drain and it starts, however busy unrelated arrivals keep them
   * (SCHEDULING.md "Parallel mode").
   */
  private static List<QueueEvent> startParallel(
      QueueAggregate state, CommandContext ctx, Duration spanBarrier) {
    List<TestRun> chain = state.runs().chain();
    List<Lanes.RunEntries> runs = Lanes.runEntries(state);
    List<Entry> blocked = new ArrayList<>();
    List<Entry> barriers = new ArrayList<>();
    for (Entry e : waiting(state)) {
      boolean barred =
          barriers.stream()
              .anyMatch(b -> runs.stream().anyMatch(r -> r.overlaps(b) && r.overlaps(e)));
      Lanes.Placement at =
          barred || blocked.stream().anyMatch(b -> Lanes.overlaps(b, e))
              ? null
              : Lanes.place(state, runs, e);
      if (at != null && at.possible()) {
        TestRun predecessor = at.predecessor();
        List<TestRun> lane =
            predecessor == null ? List.of() : Lanes.from(chain, root(state, predecessor));
        if (slotFree(lane, window(state))) {
          TestRun run =
              direct(state, ctx, List.of(e), lane)
                  .filter(d -> blocked.isEmpty())
                  .orElseGet(() -> run(state, ctx, List.of(e), predecessor));
          return List.of(new TestRunStarted(run));
        }
      }
      blocked.add(e);
      if (!barred
          && spanBarrierDue(e, spanBarrier, ctx.now())
          && !Lanes.place(state, runs, e).possible()) {
        barriers.add(e);
      }
    }
    return List.of();
  }

  private static boolean spanBarrierDue(Entry e, Duration spanBarrier, Instant now) {
    return spanBarrier != null && !e.stateChangedAt().plus(spanBarrier).isAfter(now);
  }

  /**
   * When the next waiting PR of a parallel queue may become a barrier ({@link #startParallel}): the
   * queue then needs a Tick to start what the barrier changes.
   */
  static Optional<Instant> spanBarrierDeadline(
      QueueAggregate state, Duration spanBarrier, Instant now) {
    if (spanBarrier == null || state.settings().mode() != QueueMode.PARALLEL) {
      return Optional.empty();
    }
    return state.entries().stream()
        .filter(e -> e.state() == PrState.PENDING && e.testRunId() == null)
        .map(e -> e.stateChangedAt().plus(spanBarrier))
        .filter(at -> at.isAfter(now))
        .min(Instant::compareTo);
  }

  /**
   * A direct merge of the first waiting PR ({@code directMergeMode} {@code always}, API.md §3):
   * only when nothing is ahead of it in its lane and no direct merge of it failed to hold before.
   * Whether its head contains the target's head is the source host's to say ({@link
   * Effect.CheckDirectMerge}); its own statuses then decide as a run's would.
   */
  private static Optional<TestRun> direct(
      QueueAggregate state, CommandContext ctx, List<Entry> waiting, List<TestRun> lane) {
    if (state.settings().directMergeMode() != DirectMergeMode.ALWAYS
        || !lane.isEmpty()
        || waiting.isEmpty()
        || waiting.get(0).directMergeDeclined()) {
      return Optional.empty();
    }
    Entry e = waiting.get(0);
    return Optional.of(
        TestRun.direct(
            ctx.derivedId("run/" + state.nextSequence()).toString(),
            new TestedPr(e.id(), e.prNumber(), e.pr().sha(), e.pr().title()),
            ctx.now()));
  }

  private static TestRun root(QueueAggregate state, TestRun run) {
    List<TestRun> ancestors = Lanes.ancestors(state, run);
    return ancestors.isEmpty() ? run : ancestors.get(ancestors.size() - 1);
  }

  /** A run of {@code entries} built on {@code predecessor}: it contains the PRs of that path. */
  private static TestRun run(
      QueueAggregate state, CommandContext ctx, List<Entry> entries, TestRun predecessor) {
    List<Long> dependent = new ArrayList<>();
    if (predecessor != null) {
      List<TestRun> path = new ArrayList<>(Lanes.ancestors(state, predecessor));
      java.util.Collections.reverse(path);
      path.add(predecessor);
      path.forEach(r -> r.prs().forEach(p -> dependent.add(p.number())));
    }
    List<TestedPr> prs =
        entries.stream()
            .map(e -> new TestedPr(e.id(), e.prNumber(), e.pr().sha(), e.pr().title()))
            .toList();
    return TestRun.started(
        ctx.derivedId("run/" + state.nextSequence()).toString(),
        prs,
        dependent,
        predecessor == null ? null : predecessor.id(),
        ctx.now());
  }

  /**
   * The runs a lane may have in flight: {@code concurrency}, or less while adaptive concurrency
   * narrows it.
   */
  private static long window(QueueAggregate state) {
    return SelfTuning.concurrency(state.settings(), state.history());
  }

  /**
   * {@code concurrency} bounds a lane's runs that occupy CI: a run with a verdict waits to land (or
   * for the runs ahead) without using CI, so it frees its slot. What one failure at the lane's head
   * throws away is bounded too: the lane holds at most 2 × {@code concurrency} PRs, but always room
   * for {@code concurrency} runs (batches fail more often than single PRs, so speculating deep
   * behind them wastes more).
   */
  private static boolean slotFree(List<TestRun> lane, long concurrency) {
    long prs = lane.stream().mapToLong(r -> r.prs().size()).sum();
    return lane.stream().filter(TestRun::isUndecided).count() < concurrency
        && (lane.size() < concurrency || prs < 2 * concurrency);
  }

  /**
   * Ready PRs not in any run, in queue order, without those whose dependencies are neither landed
   * nor in a run of the chain (they start behind them).
   */
  private static List<Entry> waiting(QueueAggregate state) {
    return state.inQueueOrder().stream()
        .filter(e -> e.state() == PrState.PENDING && e.testRunId() == null)
        .filter(e -> Dependencies.startable(state, e))
        .toList();
  }
}
