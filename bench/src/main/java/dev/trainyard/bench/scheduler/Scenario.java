package dev.trainyard.bench.scheduler;

import java.time.Duration;

/**
 * One simulated queue: CI duration {@code ciTime} (each run takes 0.8–1.2 of it), the chance {@code
 * brokenRate} that a PR truly breaks the build, the chance {@code flakeRate} that a green build
 * reports red, {@code concurrency} runs at once, and {@code backlog} PRs always waiting (arrivals
 * above capacity), over {@code hours} of simulated time. {@code batchSize} PRs a run (1: no
 * batching; failed batches are bisected, skipping redundant tests), {@code pendingFailureDepth} and
 * {@code optimisticMerge} as the queue settings, and {@code lanes} disjoint impacted-target groups
 * in parallel mode (0: single mode).
 */
record Scenario(
    String name,
    Duration ciTime,
    double brokenRate,
    double flakeRate,
    int concurrency,
    int backlog,
    int hours,
    long seed,
    int batchSize,
    long pendingFailureDepth,
    boolean optimisticMerge,
    int lanes) {

  /** Plain speculation: single mode, no batching, no anti-flake. */
  static Scenario plain(
      String name, Duration ciTime, double brokenRate, int concurrency, int hours, long seed) {
    return new Scenario(name, ciTime, brokenRate, 0, concurrency, 50, hours, seed, 1, 0, false, 0);
  }

  Scenario named(String newName) {
    Copy c = new Copy(this);
    c.name = newName;
    return c.scenario();
  }

  Scenario flakes(double rate) {
    Copy c = new Copy(this);
    c.flakeRate = rate;
    return c.scenario();
  }

  Scenario batches(int size) {
    Copy c = new Copy(this);
    c.batchSize = size;
    return c.scenario();
  }

  Scenario antiFlake(long depth, boolean optimistic) {
    Copy c = new Copy(this);
    c.pendingFailureDepth = depth;
    c.optimisticMerge = optimistic;
    return c.scenario();
  }

  /** {@code laneCount} disjoint groups, each with the backlog one queue had. */
  Scenario parallel(int laneCount) {
    Copy c = new Copy(this);
    c.backlog = backlog * Math.max(1, laneCount);
    c.lanes = laneCount;
    return c.scenario();
  }

  /** The settings a variant changes, copied from a scenario; CI, rates and the run are fixed. */
  private static final class Copy {
    private final Scenario from;
    private String name;
    private double flakeRate;
    private int backlog;
    private int batchSize;
    private long pendingFailureDepth;
    private boolean optimisticMerge;
    private int lanes;

    private Copy(Scenario from) {
      this.from = from;
      name = from.name;
      flakeRate = from.flakeRate;
      backlog = from.backlog;
      batchSize = from.batchSize;
      pendingFailureDepth = from.pendingFailureDepth;
      optimisticMerge = from.optimisticMerge;
      lanes = from.lanes;
    }

    private Scenario scenario() {
      return new Scenario(
          name,
          from.ciTime,
          from.brokenRate,
          flakeRate,
          from.concurrency,
          backlog,
          from.hours,
          from.seed,
          batchSize,
          pendingFailureDepth,
          optimisticMerge,
          lanes);
    }
  }

  /** Expected merges per CI duration with speculation reset on failure: s(1 − s^C)/p. */
  double speculationBoundPerT() {
    double s = 1 - brokenRate;
    return brokenRate == 0 ? concurrency : s * (1 - Math.pow(s, concurrency)) / brokenRate;
  }

  /** CI runs per PR with batches of B and a one-level split (Dorfman): 1/B + 1 − s^B. */
  double dorfmanCost() {
    double s = 1 - brokenRate;
    return batchSize <= 1 ? 1 : 1.0 / batchSize + 1 - Math.pow(s, batchSize);
  }

  double perHour(double perT) {
    return perT * Duration.ofHours(1).toMillis() / ciTime.toMillis();
  }
}
