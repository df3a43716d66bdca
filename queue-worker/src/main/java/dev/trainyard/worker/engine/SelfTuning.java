package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.QueueSettings;

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

  /** How many PRs a batch carries now. */
  static long batchSize(QueueSettings settings, RunHistory history) {
    long fixed = Math.max(1, settings.batchingMinSize());
    if (!settings.batchingAdaptive()) {
      return fixed;
    }
    // the starting size is taken as Dorfman's optimum for some rate: that rate is the prior
    double p = history.prFailureRate(1.0 / (fixed * fixed), PRIOR_WEIGHT);
    return bestSize(
        p,
        Math.min(LARGEST_BATCH, Math.max(1, settings.batchingMaxSize())),
        concurrency(settings, history),
        Math.max(1, settings.bisectionConcurrency()));
  }

  /**
   * The batch size in 1..{@code largest} with the fewest expected CI runs per PR when each PR fails
   * alone with probability {@code p} and {@code window} runs speculate, among the sizes whose
   * bisection the queue's {@code bisectionSlots} keep up with (SCHEDULING.md "Adaptive batching").
   * A batch of B costs its run; it goes red with probability q = 1 − (1 − p)^B, and then costs the
   * runs that find its k ≈ pB/q culprits by halving (2 k log2(B/k)) and the runs speculating behind
   * it, thrown away ((window − 1)/2 on average). A size is considered only while bisection keeps up
   * with it: the halving runs a batch brings, q · 2 k log2(B/k), fit the bisection slots (about one
   * batch reaches the chain's head per run time when failures are frequent). Without that bound the
   * cheapest size is nearly always the largest, and its PRs wait for bisection for hours.
   */
  static long bestSize(double p, long largest, long window, long bisectionSlots) {
    long best = 1;
    double bestCost = 1 + p * (window - 1) / 2.0;
    for (long b = 2; b <= largest && p < ALONE_ABOVE; b++) {
      double red = 1 - Math.pow(1 - p, b);
      double culprits = Math.max(1, p * b / Math.max(red, 1e-12));
      double halving = b > culprits ? 2 * culprits * Math.log(b / culprits) / Math.log(2) : 0;
      if (red * halving > bisectionSlots) {
        continue;
      }
      double cost = (1 + red * (halving + (window - 1) / 2.0)) / b;
      if (cost < bestCost) {
        best = b;
        bestCost = cost;
      }
    }
    return best;
  }

  /** How many runs of a lane may be in flight now. */
  static long concurrency(QueueSettings settings, RunHistory history) {
    long fixed = Math.max(1, settings.concurrency());
    return settings.concurrencyAdaptive() && history.window() > 0
        ? Math.min(fixed, history.window())
        : fixed;
  }
}
