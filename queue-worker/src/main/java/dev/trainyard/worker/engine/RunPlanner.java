package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.QueueState;
import dev.trainyard.worker.engine.QueueEvent.ModeSwitched;
import dev.trainyard.worker.engine.QueueEvent.TestRunCancelled;
import dev.trainyard.worker.engine.QueueEvent.TestRunFailed;
import dev.trainyard.worker.engine.QueueEvent.TestRunPassed;
import dev.trainyard.worker.engine.QueueEvent.TestRunStarted;
import dev.trainyard.worker.engine.QueueEvent.TestRunWentRed;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The run rules of SCHEDULING.md for a single lane, one action per step in this order: drop runs
 * that lost a PR or the run they were built on; record verdicts (green → passed; red at the head of
 * the chain → failed and the runs behind re-planned; red behind undecided runs → pending failure);
 * finish a mode switch; let an urgent PR skip the line; start runs while slots are free. Landing
 * passed runs is the shell's effect ({@link Effects}), in chain order.
 */
final class RunPlanner {

  /** The events of the first rule that applies, or none when the runs are as they should be. */
  List<QueueEvent> step(QueueAggregate state, CommandContext ctx) {
    List<QueueEvent> events = dropBrokenRuns(state, ctx.now());
    if (events.isEmpty()) {
      events = verdicts(state, ctx.now());
    }
    if (events.isEmpty()) {
      events = finishModeSwitch(state);
    }
    if (events.isEmpty() && canStart(state)) {
      events = skipTheLine(state, ctx.now());
    }
    if (events.isEmpty() && canStart(state)) {
      events = start(state, ctx);
    }
    return events;
  }

  /** Cancels {@code live[from]} with {@code firstReason} and every run behind it. */
  static List<QueueEvent> cancelFrom(
      List<TestRun> live, int from, String firstReason, String restReason, Instant now) {
    List<QueueEvent> events = new ArrayList<>();
    for (int i = from; i < live.size(); i++) {
      events.add(new TestRunCancelled(live.get(i).id(), i == from ? firstReason : restReason, now));
    }
    return events;
  }

  private static List<QueueEvent> dropBrokenRuns(QueueAggregate state, Instant now) {
    List<TestRun> live = state.runs().live();
    Landed landed = state.runs().landed();
    for (int i = 0; i < live.size(); i++) {
      TestRun run = live.get(i);
      boolean lostPr = run.entryIds().stream().anyMatch(id -> state.entry(id).isEmpty());
      String base = run.predecessorId();
      boolean lostBase =
          base != null
              && state.runs().live(base).isEmpty()
              && (landed == null || !landed.runId().equals(base));
      if (lostPr || lostBase) {
        String reason = Reasons.PREREQUISITE_MERGE_ITEM_CHANGED;
        return cancelFrom(live, i, reason, reason, now);
      }
    }
    return List.of();
  }

  private static List<QueueEvent> verdicts(QueueAggregate state, Instant now) {
    List<TestRun> live = state.runs().live();
    for (int i = 0; i < live.size(); i++) {
      TestRun run = live.get(i);
      Verdict verdict = verdict(state, run, now);
      if (run.state() == RunState.RED || verdict.outcome() == Verdict.Outcome.RED) {
        String reason = run.state() == RunState.RED ? run.failureReason() : verdict.reason();
        if (i == 0) {
          List<QueueEvent> events = new ArrayList<>();
          events.add(new TestRunFailed(run.id(), reason, now));
          String behind = Reasons.PREREQUISITE_MERGE_ITEM_FAILED;
          events.addAll(cancelFrom(live, 1, behind, behind, now));
          return events;
        }
        if (run.state() != RunState.RED) {
          return List.of(new TestRunWentRed(run.id(), reason, now));
        }
      } else if (verdict.outcome() == Verdict.Outcome.GREEN) {
        return List.of(new TestRunPassed(run.id(), now));
      }
    }
    return List.of();
  }

  /** A PR of the run that no longer merges cleanly makes a run that is still testing red. */
  private static Verdict verdict(QueueAggregate state, TestRun run, Instant now) {
    if (run.state() != RunState.BUILDING && run.state() != RunState.TESTING) {
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
    List<TestRun> live = state.runs().live();
    for (int i = 0; i < live.size(); i++) {
      TestRun run = live.get(i);
      Entry first = state.entry(run.entryIds().get(0)).orElseThrow();
      boolean behind = QueueAggregate.QUEUE_ORDER.compare(urgent.get(), first) < 0;
      if (behind && run.state() != RunState.PASSED) {
        String reason = Reasons.SKIP_THE_LINE_INTERRUPTED;
        return cancelFrom(live, i, reason, reason, now);
      }
    }
    return List.of();
  }

  /** Starts one run for the first waiting PR when a slot is free, on top of the last live run. */
  private static List<QueueEvent> start(QueueAggregate state, CommandContext ctx) {
    List<TestRun> live = state.runs().live();
    List<Entry> waiting = waiting(state);
    if (live.size() >= state.settings().concurrency() || waiting.isEmpty()) {
      return List.of();
    }
    Entry next = waiting.get(0);
    List<Long> dependent = new ArrayList<>();
    live.forEach(r -> r.prs().forEach(p -> dependent.add(p.number())));
    String predecessor = live.isEmpty() ? null : live.get(live.size() - 1).id();
    TestRun run =
        TestRun.started(
            ctx.derivedId("run/" + state.nextSequence()).toString(),
            List.of(new TestedPr(next.id(), next.prNumber(), next.pr().sha(), next.pr().title())),
            dependent,
            predecessor,
            ctx.now());
    return List.of(new TestRunStarted(run));
  }

  /** Ready PRs not in any run, in queue order. */
  private static List<Entry> waiting(QueueAggregate state) {
    return state.inQueueOrder().stream()
        .filter(e -> e.state() == PrState.PENDING && e.testRunId() == null)
        .toList();
  }
}
