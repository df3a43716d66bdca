package dev.trainyard.bench.scheduler;

import java.time.Duration;

/**
 * Another system's scheduling rule, driving the real engine from outside in a team's world: how its
 * speculation would choose on the same PRs, the same CI and the same engine underneath.
 *
 * <ul>
 *   <li>{@link #ZUUL}: one change a run, speculation as deep as {@link ZuulWindow} allows, changed
 *       after each merge and failure; no anti-flake (a flake fails the change, its author asks
 *       again);
 *   <li>{@link #SUBMIT_QUEUE}: SubmitQueue's ranking (Uber, arXiv 2501.03440) as far as our
 *       engine's speculation can follow it: one PR a run, the queue ordered by predicted success
 *       (each PR's priority its predicted risk), so likely passes go first and risky PRs to the
 *       tail; SubmitQueue's speculation on both outcomes of a risky PR is not modelled;
 *   <li>{@link #RISK_AWARE}: a prototype of issue 53's scheduler made of the engine's existing
 *       knobs, to see what the idea is worth before the engine learns it: batches as the queue sets
 *       them, a PR predicted at {@link #RISKY} or more run alone ({@code noBatch}) at the tail (low
 *       priority), raised back to the default priority after {@link #AGING} (still alone; so it
 *       never starves); the window cut to one run while a {@link BurstDetector} sees a burst, full
 *       otherwise;
 *   <li>{@link #PREDICTED_RISK}: not another system's rule but the engine's own: each PR is
 *       submitted with its predicted risk ({@code predictedRisk}), which the engine's batches and
 *       bisection spend by (SCHEDULING.md "Predicted risk"); nothing is driven from outside.
 * </ul>
 */
enum Rival {
  NONE,
  ZUUL,
  SUBMIT_QUEUE,
  RISK_AWARE,
  PREDICTED_RISK;

  /** A predicted risk from which a PR runs alone at the tail. */
  static final double RISKY = 0.15;

  /** How long a risky PR waits at the tail before it queues as any other. */
  static final Duration AGING = Duration.ofHours(2);

  /**
   * The priority a PR of predicted risk {@code predicted} is submitted with when ranked: 1 (most
   * likely to pass) to 255; never 0, which would skip the line.
   */
  static int rank(double predicted) {
    return 1 + (int) Math.round(Math.min(1, Math.max(0, predicted)) * 254);
  }
}
