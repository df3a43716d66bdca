package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.QueueSettings;
import java.util.function.LongUnaryOperator;

/**
 * The settings the self-tuning scheduler chooses from the queue's own history (SCHEDULING.md
 * "Adaptive batching", "Adaptive concurrency"); pure, so a replay of the same events chooses the
 * same. Without {@code batchingAdaptive} / {@code concurrencyAdaptive} they are the queue's fixed
 * settings.
 */
final class SelfTuning {
  /** How many PRs the starting estimate of the failure rate weighs, against observed ones. */
  static final int PRIOR_WEIGHT = 20;

  /** No batch larger than this is considered, whatever {@code batchingMaxSize} allows. */
  static final long LARGEST_BATCH = 256;

  /**
   * Above this failure rate no group test beats testing each PR alone (Ungar, 1960: p ≥ (3 −
   * √5)/2).
   */
  static final double ALONE_ABOVE = (3 - Math.sqrt(5)) / 2;

  private SelfTuning() {}

  /** A run's CI minutes before the queue's first verdict. */
  static final double FIRST_RUN_MINUTES = 30;

  /**
   * How many PRs a batch carries now, when {@code waiting} PRs wait to start in the lane and, for
   * batches of b PRs, {@code startable.applyAsLong(b)} runs may start before one ends or lands.
   */
  static long batchSize(
      QueueSettings settings, RunHistory history, int waiting, LongUnaryOperator startable) {
    long fixed = Math.max(1, settings.batchingMinSize());
    if (!settings.batchingAdaptive()) {
      return fixed;
    }
    double p = observedFailureRate(settings, history);
    long largest = largestBatch(settings);
    long window = concurrency(settings, history);
    long slots = Math.max(1, settings.bisectionConcurrency());
    if (!settings.ciBudgetInForce()) {
      return bestSize(p, largest, window, slots);
    }
    double runsPerPr =
        settings.ciBudgetMinutesPerMerge() * (1 - p) / Math.max(runMinutes(history), 1e-3);
    return budgetedSize(p, largest, window, slots, runsPerPr, waiting, startable);
  }

  /**
   * The batch size that makes PRs wait least within a CI budget of {@code runsPerPr} expected runs
   * per PR (SCHEDULING.md "A CI budget"): the smallest size within the budget (a red batch delays
   * all of its innocent PRs by its bisection, so smaller batches wait less), grown to the smallest
   * size b at which the runs that may start now ({@code startable.applyAsLong(b)}, at least one)
   * take all {@code waiting} PRs (a PR left for a later run waits until a run ends), never beyond
   * the largest size bisection keeps up with. When no size is within the budget, the cheapest.
   */
  static long budgetedSize(
      double p,
      long largest,
      long window,
      long bisectionSlots,
      double runsPerPr,
      int waiting,
      LongUnaryOperator startable) {
    long cheapest = bestSize(p, largest, window, bisectionSlots);
    long withinBudget = cheapest;
    long feasible = 1;
    for (long b = 1; b <= largest && (b == 1 || p < ALONE_ABOVE); b++) {
      double cost = costPerPr(b, p, window, bisectionSlots);
      if (Double.isInfinite(cost)) {
        break;
      }
      feasible = b;
      if (cost <= runsPerPr && b < withinBudget) {
        withinBudget = b;
      }
    }
    long size = Math.min(withinBudget, feasible);
    while (size < feasible && Math.max(1, startable.applyAsLong(size)) * size < waiting) {
      size++;
    }
    return size;
  }

  /** The expected CI runs per PR of batches of {@code b} PRs that each fail with {@code p}. */
  private static double costPerPr(long b, double p, long window, long bisectionSlots) {
    return batchCost(b, 1 - Math.pow(1 - p, b), p * b, window, bisectionSlots) / b;
  }

  /** The largest batch adaptive batching considers. */
  static long largestBatch(QueueSettings settings) {
    return Math.min(LARGEST_BATCH, Math.max(1, settings.batchingMaxSize()));
  }

  /** A run's CI minutes: the queue's median run, {@link #FIRST_RUN_MINUTES} before a verdict. */
  static double runMinutes(RunHistory history) {
    return history.medianDuration().map(d -> d.toMillis() / 60_000.0).orElse(FIRST_RUN_MINUTES);
  }

  /**
   * The share of PRs that failed their tests alone, weighed with a prior: the rate for which {@code
   * batchingMinSize} is Dorfman's optimum (the starting size is taken as the optimum for some rate:
   * that rate is the prior).
   */
  static double observedFailureRate(QueueSettings settings, RunHistory history) {
    long fixed = Math.max(1, settings.batchingMinSize());
    return history.prFailureRate(1.0 / (fixed * fixed), PRIOR_WEIGHT);
  }

  /**
   * The batch size in 1..{@code largest} with the fewest expected CI runs per PR when each PR fails
   * alone with probability {@code p} and {@code window} runs speculate, among the sizes whose
   * bisection the queue's {@code bisectionSlots} keep up with (SCHEDULING.md "Adaptive batching").
   */
  static long bestSize(double p, long largest, long window, long bisectionSlots) {
    long best = 1;
    double bestCost = costPerPr(1, p, window, bisectionSlots);
    for (long b = 2; b <= largest && p < ALONE_ABOVE; b++) {
      double cost = costPerPr(b, p, window, bisectionSlots);
      if (cost < bestCost) {
        best = b;
        bestCost = cost;
      }
    }
    return best;
  }

  /**
   * How many of the PRs of these {@code risks}, taken in order, the next batch should carry
   * (SCHEDULING.md "Predicted risk"): the first batch of the split of all of them into batches, in
   * order, with the fewest expected CI runs in all ({@link #batchCost} each). A risky PR therefore
   * closes the batch ahead of it and runs alone or with PRs of its kind, where the cheapest batch
   * per PR would have let the safe PRs pay for its red.
   */
  static int bestPrefix(double[] risks, long window, long bisectionSlots) {
    int n = risks.length;
    double[] cheapest = new double[n + 1]; // the PRs from i on, split at their best
    int[] first = new int[n + 1];
    for (int i = n - 1; i >= 0; i--) {
      cheapest[i] = Double.POSITIVE_INFINITY;
      double passes = 1;
      double expectedCulprits = 0;
      for (int b = 1; i + b <= n; b++) {
        passes *= 1 - risks[i + b - 1];
        expectedCulprits += risks[i + b - 1];
        double cost =
            batchCost(b, 1 - passes, expectedCulprits, window, bisectionSlots) + cheapest[i + b];
        if (cost < cheapest[i]) {
          cheapest[i] = cost;
          first[i] = b;
        }
      }
    }
    return first[0];
  }

  /**
   * The expected CI runs of one batch of {@code b} PRs that goes red with probability {@code red}
   * and holds {@code expectedCulprits} broken PRs on average; infinite for a batch not worth
   * testing together. A batch costs its run; when red, the runs that find its k ≈ culprits / red
   * culprits by halving (2 k log2(b/k)) and the runs speculating behind it, thrown away ((window −
   * 1)/2 on average). A batch is worth testing together only while bisection keeps up with it (the
   * halving runs it brings, red · 2 k log2(b/k), fit the bisection slots: about one batch reaches
   * the chain's head per run time when failures are frequent; without that bound the cheapest size
   * is nearly always the largest, and its PRs wait for bisection for hours) and while its PRs fail
   * less than {@link #ALONE_ABOVE} on average (no group test beats testing each alone).
   */
  static double batchCost(
      long b, double red, double expectedCulprits, long window, long bisectionSlots) {
    if (b == 1) {
      return 1 + red * (window - 1) / 2.0;
    }
    if (expectedCulprits / b >= ALONE_ABOVE) {
      return Double.POSITIVE_INFINITY;
    }
    double culprits = Math.max(1, expectedCulprits / Math.max(red, 1e-12));
    double halving = b > culprits ? 2 * culprits * Math.log(b / culprits) / Math.log(2) : 0;
    if (red * halving > bisectionSlots) {
      return Double.POSITIVE_INFINITY;
    }
    return 1 + red * (halving + (window - 1) / 2.0);
  }

  /** How many runs of a lane may be in flight now. */
  static long concurrency(QueueSettings settings, RunHistory history) {
    long fixed = Math.max(1, settings.concurrency());
    return settings.concurrencyAdaptive() && history.window() > 0
        ? Math.min(fixed, history.window())
        : fixed;
  }
}
