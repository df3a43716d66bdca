package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.QueueState;
import dev.trainyard.worker.engine.QueueEvent.TestRunCancelled;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What the run rules share ({@link PlanningRules} lists the rules, one class each): cancelling a
 * run and the runs built on it, whether runs may start, a lane's window and free slots, and the PRs
 * waiting for a run.
 */
final class RunPlanner {
  private RunPlanner() {}

  /** Cancels {@code runs[from]} with {@code firstReason} and every run behind it. */
  static List<QueueEvent> cancelFrom(
      List<TestRun> runs, int from, String firstReason, String restReason, Instant now) {
    List<QueueEvent> events = new ArrayList<>();
    for (int i = from; i < runs.size(); i++) {
      events.add(new TestRunCancelled(runs.get(i).id(), i == from ? firstReason : restReason, now));
    }
    return events;
  }

  /** Starting is allowed while running or draining, and not while a mode switch waits. */
  static boolean canStart(QueueAggregate state) {
    return (state.state() == QueueState.RUNNING || state.state() == QueueState.DRAINING)
        && state.switchingTo() == null;
  }

  /**
   * The runs a lane may have in flight: {@code concurrency}, or less while adaptive concurrency
   * narrows it.
   */
  static long window(QueueAggregate state) {
    return SelfTuning.concurrency(state.settings(), state.history());
  }

  /**
   * {@code concurrency} bounds a lane's runs that occupy CI: a run with a verdict waits to land (or
   * for the runs ahead) without using CI, so it frees its slot. What one failure at the lane's head
   * throws away is bounded too: the lane holds at most 2 × {@code concurrency} PRs, but always room
   * for {@code concurrency} runs (batches fail more often than single PRs, so speculating deep
   * behind them wastes more).
   */
  static boolean slotFree(List<TestRun> lane, long concurrency) {
    return slotFree(
        lane.stream().filter(TestRun::isUndecided).count(), lane.size(), prs(lane), concurrency);
  }

  /**
   * {@link #slotFree(List, long)} for a lane of {@code runs} runs, {@code undecided} of them under
   * test, holding {@code prs} PRs.
   */
  static boolean slotFree(long undecided, long runs, long prs, long concurrency) {
    return undecided < concurrency && (runs < concurrency || prs < 2 * concurrency);
  }

  /** How many PRs the runs of {@code lane} hold. */
  static long prs(List<TestRun> lane) {
    return lane.stream().mapToLong(r -> r.prs().size()).sum();
  }

  /**
   * Ready PRs not in any run, in queue order, without those whose dependencies are neither landed
   * nor in a run of the chain (they start behind them).
   */
  static List<Entry> waiting(QueueAggregate state) {
    return state.inQueueOrder().stream()
        .filter(e -> e.state() == PrState.PENDING && e.testRunId() == null)
        .filter(e -> Dependencies.startable(state, e))
        .toList();
  }
}
