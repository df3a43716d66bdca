package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.QueueSettings;
import java.util.List;
import java.util.Optional;

/**
 * Whether a speculative run is worth its CI (SCHEDULING.md "Speculation at a price", issue 53): a
 * queue whose CI spent more per merged PR lately ({@link CiSpend}) than its CI budget allows starts
 * a run behind runs without a green verdict only while the CI minutes of a run, over the PRs it is
 * expected to land, are within the allowance: budget × budget / spent, so the price rises with the
 * overspend. Within the budget there is no price: the budgeted batch size already spends about the
 * budget, and a price on top of it spent less than the budget for a longer wait. A run is expected
 * to land its PRs when it and every run ahead of it pass: a run under test passes with the chance
 * that none of its PRs breaks the target (each PR's predicted risk once the queue trusts its
 * predictions, {@link Batches#risk}, or the failure rate the queue observed), a red run ahead
 * leaves nothing behind it on the landing path, and a passed one is on it. A run with only passed
 * runs ahead (or none) always starts, so every PR reaches the head of the chain; no run starts
 * behind a red one, which it would be cancelled with; and otherwise, while more PRs wait than the
 * window's runs take, the price holds nothing, so a queue that falls behind keeps up.
 */
final class SpeculationPrice {
  private SpeculationPrice() {}

  /** Whether the next run, carrying {@code prs} on top of the chain, may start now. */
  static boolean worthStarting(QueueAggregate state, List<Entry> prs) {
    QueueSettings settings = state.settings();
    if (!settings.ciBudgetInForce() || prs.isEmpty()) {
      return true;
    }
    double allowance =
        allowance(settings.ciBudgetMinutesPerMerge(), state.history().spend().minutesPerMerge());
    if (allowance == Double.POSITIVE_INFINITY) {
      return true;
    }
    double onPath = 1;
    boolean speculative = false;
    for (TestRun run : state.runs().chain()) {
      if (run.state() == RunState.PASSED) {
        continue;
      }
      speculative = true;
      onPath *= run.state() == RunState.RED ? 0 : passes(state, ofRun(state, run));
    }
    if (!speculative) {
      return true;
    }
    if (onPath == 0) {
      return false; // a red ahead: the run would be cancelled with it, backlog or not
    }
    if (backlog(state, prs.size())) {
      return true;
    }
    double expectedLanded = onPath * passes(state, prs) * prs.size();
    return expectedLanded > 0
        && SelfTuning.runMinutes(state.history()) <= allowance * expectedLanded;
  }

  /**
   * CI minutes a merged PR may cost a speculative run: no limit while what CI spent per merged PR
   * lately ({@link CiSpend}) is within the {@code budget} or too few PRs merged to say; past it,
   * the budget times budget / {@code spent}, so the price rises with the overspend.
   */
  static double allowance(long budget, Optional<Double> spent) {
    return spent
        .filter(s -> s > budget)
        .map(s -> (double) budget * budget / s)
        .orElse(Double.POSITIVE_INFINITY);
  }

  /**
   * More PRs wait than the window's runs take at this run's size: the queue falls behind, and
   * speculation is what keeps its throughput, so the price holds nothing (stability before budget).
   */
  private static boolean backlog(QueueAggregate state, int runSize) {
    return RunPlanner.waiting(state).size() > RunPlanner.window(state) * runSize;
  }

  /** The chance that none of {@code prs} breaks the target. */
  private static double passes(QueueAggregate state, List<Entry> prs) {
    double passes = 1;
    for (double risk : Batches.risks(state, prs)) {
      passes *= 1 - risk;
    }
    return passes;
  }

  private static List<Entry> ofRun(QueueAggregate state, TestRun run) {
    return run.prs().stream().flatMap(pr -> state.entry(pr.entryId()).stream()).toList();
  }
}
