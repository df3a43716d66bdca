package dev.trainyard.bench.scheduler;

import java.time.Duration;

/**
 * One simulated queue: CI duration {@code ciTime} (each run takes 0.8–1.2 of it), the chance {@code
 * brokenRate} that a PR truly breaks the build, the chance {@code flakeRate} that a green build
 * reports red, {@code concurrency} runs at once, and {@code backlog} PRs always waiting (arrivals
 * above capacity), over {@code hours} of simulated time. {@code batchSize} PRs a run (1: no
 * batching; failed batches are bisected, skipping redundant tests), {@code pendingFailureDepth} and
 * {@code optimisticMerge} as the queue settings, and {@code lanes} disjoint impacted-target groups
 * in parallel mode (0: single mode). {@code laterBrokenRate}: the chance from halfway through the
 * run on (the failure rate moving). {@code adaptiveBatching} and {@code adaptiveConcurrency}: the
 * self-tuning scheduler's settings ({@code batchSize} is then the starting size, up to 16). {@code
 * workload}: how PRs arrive and what else the queue meets ({@link Workload}). {@code
 * ciBudgetMinutes}: the queue's CI budget per merged PR (0: none).
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
    int lanes,
    double laterBrokenRate,
    boolean adaptiveBatching,
    boolean adaptiveConcurrency,
    Workload workload,
    long ciBudgetMinutes) {

  /**
   * {@code arrivalsPerHour}: open-loop (Poisson) arrivals at that rate, 0 for a standing backlog;
   * {@code spanningRate}: the share of PRs (parallel mode) whose targets span two groups; {@code
   * notReadyRate}: the share submitted not ready (a draft), ready after 0–4 h; {@code freezes}: a
   * two-hour freeze with a known end once a day; {@code weekdayWindow}: landing only Monday to
   * Friday, 09:00–17:00 New York time; {@code skipRedundant}: bisection skips redundant tests (else
   * both halves are tested); {@code spanBarrier}: the engine's barrier for spanning PRs (off only
   * to measure it).
   */
  record Workload(
      double arrivalsPerHour,
      double spanningRate,
      double notReadyRate,
      boolean freezes,
      boolean weekdayWindow,
      boolean skipRedundant,
      boolean spanBarrier) {
    static final Workload BACKLOG = new Workload(0, 0, 0, false, false, true, true);
  }

  /** Plain speculation: single mode, no batching, no anti-flake. */
  static Scenario plain(
      String name, Duration ciTime, double brokenRate, int concurrency, int hours, long seed) {
    return new Scenario(
        name,
        ciTime,
        brokenRate,
        0,
        concurrency,
        50,
        hours,
        seed,
        1,
        0,
        false,
        0,
        brokenRate,
        false,
        false,
        Workload.BACKLOG,
        0);
  }

  Scenario with(Workload changed) {
    Copy c = new Copy(this);
    c.workload = changed;
    return c.scenario();
  }

  /** Failed batches bisected by testing both halves. */
  Scenario bisectingBothHalves() {
    Workload w = workload;
    return with(
        new Workload(
            w.arrivalsPerHour(),
            w.spanningRate(),
            w.notReadyRate(),
            w.freezes(),
            w.weekdayWindow(),
            false,
            w.spanBarrier()));
  }

  /** Open-loop arrivals at {@code perHour}, with {@code spanning} of them spanning two groups. */
  Scenario openLoop(double perHour, double spanning, boolean barrier) {
    Workload w = workload;
    return with(
        new Workload(
            perHour,
            spanning,
            w.notReadyRate(),
            w.freezes(),
            w.weekdayWindow(),
            w.skipRedundant(),
            barrier));
  }

  /** What the forecast meets besides runs: PRs not ready, daily freezes, a weekday window. */
  Scenario gated(double notReady, boolean freezes, boolean weekdayWindow) {
    Workload w = workload;
    return with(
        new Workload(
            w.arrivalsPerHour(),
            w.spanningRate(),
            notReady,
            freezes,
            weekdayWindow,
            w.skipRedundant(),
            w.spanBarrier()));
  }

  /** The same queue over {@code newHours} simulated hours. */
  Scenario lasting(int newHours) {
    Copy c = new Copy(this);
    c.hours = newHours;
    return c.scenario();
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

  /** The same queue where a PR is broken with chance {@code rate}, all through the run. */
  Scenario rate(double rate) {
    Copy c = new Copy(this);
    c.brokenRate = rate;
    c.laterBrokenRate = rate;
    return c.scenario();
  }

  /** Batch size chosen by the queue from what it observes, starting at {@code batchSize}. */
  Scenario withAdaptiveBatching() {
    Copy c = new Copy(this);
    c.adaptiveBatching = true;
    return c.scenario();
  }

  /** The speculation window narrowed on failures and widened on merges. */
  Scenario withAdaptiveConcurrency() {
    Copy c = new Copy(this);
    c.adaptiveConcurrency = true;
    return c.scenario();
  }

  /** Adaptive batching may spend up to {@code minutes} of CI per merged PR to cut waits. */
  Scenario withCiBudget(long minutes) {
    Copy c = new Copy(this);
    c.ciBudgetMinutes = minutes;
    return c.scenario();
  }

  /** The broken rate moves to {@code rate} halfway through the run. */
  Scenario movingTo(double rate) {
    Copy c = new Copy(this);
    c.laterBrokenRate = rate;
    return c.scenario();
  }

  /** The chance a PR submitted {@code elapsed} (0..1) through the run is broken. */
  double brokenRateAt(double elapsed) {
    return elapsed < 0.5 ? brokenRate : laterBrokenRate;
  }

  /** {@code laneCount} disjoint groups, each with the backlog one queue had. */
  Scenario parallel(int laneCount) {
    Copy c = new Copy(this);
    c.backlog = backlog * Math.max(1, laneCount);
    c.lanes = laneCount;
    return c.scenario();
  }

  /** The settings a variant changes, copied from a scenario; CI and the run are fixed. */
  private static final class Copy {
    private final Scenario from;
    private String name;
    private double brokenRate;
    private double flakeRate;
    private int backlog;
    private int batchSize;
    private long pendingFailureDepth;
    private boolean optimisticMerge;
    private int lanes;
    private double laterBrokenRate;
    private boolean adaptiveBatching;
    private boolean adaptiveConcurrency;
    private Workload workload;
    private int hours;
    private long ciBudgetMinutes;

    private Copy(Scenario from) {
      this.from = from;
      name = from.name;
      brokenRate = from.brokenRate;
      flakeRate = from.flakeRate;
      backlog = from.backlog;
      batchSize = from.batchSize;
      pendingFailureDepth = from.pendingFailureDepth;
      optimisticMerge = from.optimisticMerge;
      lanes = from.lanes;
      laterBrokenRate = from.laterBrokenRate;
      adaptiveBatching = from.adaptiveBatching;
      adaptiveConcurrency = from.adaptiveConcurrency;
      workload = from.workload;
      hours = from.hours;
      ciBudgetMinutes = from.ciBudgetMinutes;
    }

    private Scenario scenario() {
      return new Scenario(
          name,
          from.ciTime,
          brokenRate,
          flakeRate,
          from.concurrency,
          backlog,
          hours,
          from.seed,
          batchSize,
          pendingFailureDepth,
          optimisticMerge,
          lanes,
          laterBrokenRate,
          adaptiveBatching,
          adaptiveConcurrency,
          workload,
          ciBudgetMinutes);
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
