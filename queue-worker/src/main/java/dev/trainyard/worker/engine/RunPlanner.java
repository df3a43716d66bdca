package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.OptimizationMode;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.QueueState;
import dev.trainyard.worker.engine.QueueEvent.BisectionRunStarted;
import dev.trainyard.worker.engine.QueueEvent.ModeSwitched;
import dev.trainyard.worker.engine.QueueEvent.TestRunBisected;
import dev.trainyard.worker.engine.QueueEvent.TestRunCancelled;
import dev.trainyard.worker.engine.QueueEvent.TestRunCleared;
import dev.trainyard.worker.engine.QueueEvent.TestRunFailed;
import dev.trainyard.worker.engine.QueueEvent.TestRunPassed;
import dev.trainyard.worker.engine.QueueEvent.TestRunRescued;
import dev.trainyard.worker.engine.QueueEvent.TestRunStarted;
import dev.trainyard.worker.engine.QueueEvent.TestRunWentRed;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The run rules of SCHEDULING.md, one action per step in this order:
 *
 * <ol>
 *   <li>drop runs that lost a PR or the run they were built on;
 *   <li>record verdicts: green → passed (a bisection run: cleared, and with {@code
 *       bisection_skip_redundant_tests} its undecided sibling is known red); red → pending failure,
 *       or at once what step 3 decides when nothing can change it;
 *   <li>conclude the head of the chain: rescue red runs a green run behind vindicates ({@code
 *       canOptimisticallyMerge}); a red head whose {@code pendingFailureDepth} runs behind have
 *       finished fails (a batch is bisected instead) and the runs behind are re-planned;
 *   <li>finish a mode switch;
 *   <li>let an urgent PR skip the line;
 *   <li>start bisection runs up to {@code bisectionConcurrency};
 *   <li>start runs (one PR, or a batch) while the chain has free slots.
 * </ol>
 *
 * Landing passed runs is the shell's effect ({@link Effects}), in chain order.
 */
final class RunPlanner {

  /** The events of the first rule that applies, or none when the runs are as they should be. */
  List<QueueEvent> step(QueueAggregate state, CommandContext ctx) {
    List<QueueEvent> events = dropBrokenRuns(state, ctx.now());
    if (events.isEmpty()) {
      events = verdicts(state, ctx);
    }
    if (events.isEmpty()) {
      events = concludeHead(state, ctx, false);
    }
    if (events.isEmpty()) {
      events = finishModeSwitch(state);
    }
    if (events.isEmpty() && canStart(state)) {
      events = skipTheLine(state, ctx.now());
    }
    if (events.isEmpty() && state.state() != QueueState.PAUSED) {
      events = startBisection(state, ctx.now());
    }
    if (events.isEmpty() && canStart(state)) {
      events = start(state, ctx);
    }
    return events;
  }

  /** When a partial batch stops waiting for more PRs, if one waits. */
  static Optional<Instant> batchDeadline(QueueAggregate state) {
    return canStart(state) && slotFree(state)
        ? Batches.deadline(state.settings(), waiting(state))
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

  private static List<QueueEvent> dropBrokenRuns(QueueAggregate state, Instant now) {
    String reason = Reasons.PREREQUISITE_MERGE_ITEM_CHANGED;
    for (TestRun run : state.runs().bisecting()) {
      if (lostPr(state, run)) {
        return List.of(new TestRunCancelled(run.id(), reason, now));
      }
    }
    List<TestRun> chain = state.runs().chain();
    Landed landed = state.runs().landed();
    for (int i = 0; i < chain.size(); i++) {
      TestRun run = chain.get(i);
      String base = run.predecessorId();
      boolean lostBase =
          base != null
              && state.runs().live(base).isEmpty()
              && (landed == null || !landed.runId().equals(base));
      if (lostPr(state, run) || lostBase) {
        return cancelFrom(chain, i, reason, reason, now);
      }
    }
    return List.of();
  }

  private static boolean lostPr(QueueAggregate state, TestRun run) {
    return run.entryIds().stream().anyMatch(id -> state.entry(id).isEmpty());
  }

  private static List<QueueEvent> verdicts(QueueAggregate state, CommandContext ctx) {
    for (TestRun run : state.runs().live()) {
      Verdict verdict = verdict(state, run, ctx.now());
      if (verdict.outcome() == Verdict.Outcome.GREEN) {
        return run.bisection()
            ? cleared(state, run, ctx)
            : List.of(new TestRunPassed(run.id(), ctx.now()));
      }
      if (verdict.outcome() == Verdict.Outcome.RED) {
        if (run.bisection()) {
          return failOrBisect(state, run, verdict.reason(), ctx);
        }
        List<QueueEvent> now =
            isHead(state, run) ? concludeHead(state, ctx, true, verdict.reason()) : List.of();
        return now.isEmpty()
            ? List.of(new TestRunWentRed(run.id(), verdict.reason(), ctx.now()))
            : now;
      }
    }
    return List.of();
  }

  private static boolean isHead(QueueAggregate state, TestRun run) {
    List<TestRun> chain = state.runs().chain();
    return !chain.isEmpty() && chain.get(0).id().equals(run.id());
  }

  /** A run that is still testing goes red when one of its PRs no longer merges cleanly. */
  private static Verdict verdict(QueueAggregate state, TestRun run, Instant now) {
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
    return Verdict.of(
        run, state.settings().requiredStatuses(), state.settings().testingTimeoutMinutes(), now);
  }

  private static List<QueueEvent> concludeHead(
      QueueAggregate state, CommandContext ctx, boolean headJustRed) {
    return concludeHead(state, ctx, headJustRed, null);
  }

  /**
   * Rescues red runs a green run behind them vindicates, or fails the red head once the runs behind
   * it that {@code pendingFailureDepth} waits for have finished. {@code headJustRed}: the head's
   * verdict is red ({@code reason}) but not yet recorded.
   */
  private static List<QueueEvent> concludeHead(
      QueueAggregate state, CommandContext ctx, boolean headJustRed, String reason) {
    List<TestRun> chain = state.runs().chain();
    if (chain.isEmpty()) {
      return List.of();
    }
    if (state.settings().canOptimisticallyMerge() && !headJustRed) {
      List<QueueEvent> rescued = rescue(chain, ctx.now());
      if (!rescued.isEmpty()) {
        return rescued;
      }
    }
    TestRun head = chain.get(0);
    boolean red = headJustRed || head.state() == RunState.RED;
    if (!red || !behindFinished(chain, state.settings().pendingFailureDepth())) {
      return List.of();
    }
    List<QueueEvent> events =
        new ArrayList<>(
            failOrBisect(state, head, headJustRed ? reason : head.failureReason(), ctx));
    String behind = Reasons.PREREQUISITE_MERGE_ITEM_FAILED;
    events.addAll(cancelFrom(chain, 1, behind, behind, ctx.now()));
    return events;
  }

  /**
   * The first green run whose runs ahead are all decided vindicates the red ones among them: it was
   * built on top of them, so their changes passed (their red was a flake).
   */
  private static List<QueueEvent> rescue(List<TestRun> chain, Instant now) {
    for (int j = 0; j < chain.size(); j++) {
      TestRun run = chain.get(j);
      if (run.state() == RunState.PASSED) {
        List<QueueEvent> events = new ArrayList<>();
        for (TestRun ahead : chain.subList(0, j)) {
          if (ahead.state() == RunState.RED && ahead.headSha() != null) {
            events.add(new TestRunRescued(ahead.id(), run.id(), now));
          }
        }
        if (!events.isEmpty()) {
          return events;
        }
      } else if (run.state() != RunState.RED) {
        return List.of();
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
    List<TestRun> halves =
        List.of(
            TestRun.half(
                ctx.derivedId("run/" + sequence).toString(),
                prs.subList(0, middle),
                run,
                ctx.now()),
            TestRun.half(
                ctx.derivedId("run/" + (sequence + 1)).toString(),
                prs.subList(middle, prs.size()),
                run,
                ctx.now()));
    return List.of(new TestRunBisected(run.id(), reason, halves, ctx.now()));
  }

  /**
   * A green bisection run clears its PRs; when the other half was cleared too, nothing explains the
   * split run's red, and the PRs are isolated. When the split run was red and skipping redundant
   * tests is on, the other half must hold the cause: it is failed, or split, without waiting for
   * its result.
   */
  private static List<QueueEvent> cleared(QueueAggregate state, TestRun run, CommandContext ctx) {
    boolean siblingCleared =
        state.runs().finished().stream()
            .anyMatch(
                r ->
                    r.state() == RunState.CLEARED && run.predecessorId().equals(r.predecessorId()));
    List<QueueEvent> events = new ArrayList<>();
    events.add(new TestRunCleared(run.id(), siblingCleared, ctx.now()));
    if (state.settings().optimizationMode() != OptimizationMode.BISECTION_SKIP_REDUNDANT_TESTS) {
      return events;
    }
    String splitReason =
        state.runs().any(run.predecessorId()).map(TestRun::failureReason).orElse(null);
    state.runs().bisecting().stream()
        .filter(r -> r.predecessorId().equals(run.predecessorId()) && !r.id().equals(run.id()))
        .filter(r -> r.state() == RunState.WAITING || r.isUndecided())
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

  private static List<QueueEvent> finishModeSwitch(QueueAggregate state) {
    return state.switchingTo() != null && state.runs().live().isEmpty()
        ? List.of(new ModeSwitched(state.switchingTo()))
        : List.of();
  }

  /** Starting is allowed while running or draining, and not while a mode switch waits. */
  private static boolean canStart(QueueAggregate state) {
    return (state.state() == QueueState.RUNNING || state.state() == QueueState.DRAINING)
        && state.switchingTo() == null;
  }

  /**
   * An urgent PR waiting for a run goes to the front: the first run behind it that has not passed,
   * and every run after that one, are cancelled and re-planned.
   */
  private static List<QueueEvent> skipTheLine(QueueAggregate state, Instant now) {
    Optional<Entry> urgent = waiting(state).stream().filter(Entry::skipTheLine).findFirst();
    if (urgent.isEmpty()) {
      return List.of();
    }
    List<TestRun> chain = state.runs().chain();
    for (int i = 0; i < chain.size(); i++) {
      TestRun run = chain.get(i);
      Entry first = state.entry(run.entryIds().get(0)).orElseThrow();
      boolean behind = QueueAggregate.QUEUE_ORDER.compare(urgent.get(), first) < 0;
      if (behind && run.state() != RunState.PASSED) {
        String reason = Reasons.SKIP_THE_LINE_INTERRUPTED;
        return cancelFrom(chain, i, reason, reason, now);
      }
    }
    return List.of();
  }

  /**
   * Starts the oldest waiting bisection run while fewer than {@code bisectionConcurrency} run. When
   * skipping redundant tests, a second half waits for the first: if that one passes, the second is
   * known red without a run of its own.
   */
  private static List<QueueEvent> startBisection(QueueAggregate state, Instant now) {
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

  /** Starts one run for the next waiting PRs when a slot is free, on top of the last chain run. */
  private static List<QueueEvent> start(QueueAggregate state, CommandContext ctx) {
    List<TestRun> chain = state.runs().chain();
    if (!slotFree(state)) {
      return List.of();
    }
    Batches.Next next = Batches.next(state.settings(), waiting(state));
    if (!next.startsAt(ctx.now())) {
      return List.of();
    }
    List<Long> dependent = new ArrayList<>();
    chain.forEach(r -> r.prs().forEach(p -> dependent.add(p.number())));
    String predecessor = chain.isEmpty() ? null : chain.get(chain.size() - 1).id();
    List<TestedPr> prs =
        next.entries().stream()
            .map(e -> new TestedPr(e.id(), e.prNumber(), e.pr().sha(), e.pr().title()))
            .toList();
    TestRun run =
        TestRun.started(
            ctx.derivedId("run/" + state.nextSequence()).toString(),
            prs,
            dependent,
            predecessor,
            ctx.now());
    return List.of(new TestRunStarted(run));
  }

  /**
   * {@code concurrency} bounds the chain runs that occupy CI: a run with a verdict waits to land
   * (or for the runs ahead) without using CI, so it frees its slot. The chain itself stays within
   * twice that, so one failure at its head never throws away more than that many runs.
   */
  private static boolean slotFree(QueueAggregate state) {
    List<TestRun> chain = state.runs().chain();
    long concurrency = state.settings().concurrency();
    return chain.stream().filter(TestRun::isUndecided).count() < concurrency
        && chain.size() < 2 * concurrency;
  }

  /** Ready PRs not in any run, in queue order. */
  private static List<Entry> waiting(QueueAggregate state) {
    return state.inQueueOrder().stream()
        .filter(e -> e.state() == PrState.PENDING && e.testRunId() == null)
        .toList();
  }
}
