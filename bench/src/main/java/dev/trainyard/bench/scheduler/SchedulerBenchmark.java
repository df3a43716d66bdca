package dev.trainyard.bench.scheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The scheduler benchmark of SCHEDULING.md: seeded simulations that drive the real engine, one
 * table row per scenario beside its reference bounds. Defaults: T = 30 min, p = 5 %, C = 10,
 * arrivals above capacity (a standing backlog), 500 simulated hours.
 *
 * <p>Arguments: {@code [hours] [seed] [fixed | self-tuning | engine | teams]} (the first three when
 * none is named; {@code teams}, issue 53's workloads like real teams', only when named, with {@code
 * hours} of arrivals per row).
 */
public final class SchedulerBenchmark {
  private SchedulerBenchmark() {}

  public static void main(String[] args) {
    int hours = args.length > 0 ? Integer.parseInt(args[0]) : 500;
    long seed = args.length > 1 ? Long.parseLong(args[1]) : 42;
    Duration t = Duration.ofMinutes(30);
    Scenario plain = Scenario.plain("plain speculation (C = 10)", t, 0.05, 10, hours, seed);
    Scenario flaky = plain.flakes(0.03).named("plain speculation, flakes f = 3 % (anti-flake off)");
    List<Scenario> scenarios =
        List.of(
            Scenario.plain("serial queue (C = 1)", t, 0.05, 1, hours, seed),
            plain,
            Scenario.plain("plain speculation, no broken PRs", t, 0, 10, hours, seed),
            plain.batches(4).named("batching B = 4, bisection"),
            flaky,
            flaky
                .antiFlake(1, true)
                .named("flakes f = 3 %, pendingFailureDepth 1, optimistic merge"),
            plain.parallel(4).named("parallel mode, 4 disjoint target groups"));
    String only = args.length < 3 ? "" : args[2];
    boolean fixedRows = only.isEmpty() || only.equals("fixed");
    boolean tuningRows = only.isEmpty() || only.equals("self-tuning");
    boolean engineRows = only.isEmpty() || only.equals("engine");
    long started = System.nanoTime();
    if (only.equals("teams")) {
      TeamRows teams = TeamRows.run(hours, seed);
      System.out.printf(
          Locale.ROOT,
          "%nseed %d, %d h of arrivals per row (%.1f s)%n",
          seed,
          hours,
          (System.nanoTime() - started) / 1e9);
      teams.print();
      return;
    }
    List<Simulation.Result> results = fixedRows ? runAll(scenarios) : List.of();
    List<Sweep> sweeps = tuningRows ? sweeps(plain) : List.of();
    Simulation.Result window =
        tuningRows
            ? new Simulation(
                    plain
                        .rate(0.15)
                        .withAdaptiveConcurrency()
                        .named("p = 15 %, adaptive concurrency"))
                .run()
            : null;
    EngineRows engine = engineRows ? EngineRows.run(plain) : null;
    double seconds = (System.nanoTime() - started) / 1e9;
    System.out.printf(
        Locale.ROOT,
        "%nT = %d min, %d simulated hours per scenario, seed %d (%.1f s)%n%n",
        t.toMinutes(),
        hours,
        seed,
        seconds);
    if (fixedRows) {
      table(results);
      spend(results);
      targets(results);
    }
    if (tuningRows) {
      SelfTuningRows.print(sweeps, window);
    }
    if (engine != null) {
      engine.print();
    }
  }

  private static List<Simulation.Result> runAll(List<Scenario> scenarios) {
    List<Simulation.Result> results = new ArrayList<>();
    for (Scenario s : scenarios) {
      results.add(new Simulation(s).run());
    }
    return results;
  }

  /**
   * For each failure rate (and a run whose rate moves from 2 % to 15 % halfway): every fixed batch
   * size of {@link Sweep#SIZES}, and the adaptive queue starting at B = 4.
   */
  private static List<Sweep> sweeps(Scenario plain) {
    List<Sweep> sweeps = new ArrayList<>();
    List<Scenario> rates =
        List.of(
            plain.rate(0.01).named("p = 1 %"),
            plain.rate(0.05).named("p = 5 %"),
            plain.rate(0.15).named("p = 15 %"),
            plain.rate(0.02).movingTo(0.15).named("p = 2 % → 15 % halfway"));
    for (Scenario rate : rates) {
      List<Simulation.Result> fixed = new ArrayList<>();
      for (int b : Sweep.SIZES) {
        fixed.add(new Simulation(rate.batches(b).named(rate.name() + ", B = " + b)).run());
      }
      Scenario adaptive =
          rate.batches(4).withAdaptiveBatching().named(rate.name() + ", adaptive B");
      sweeps.add(new Sweep(rate, fixed, new Simulation(adaptive).run()));
    }
    return sweeps;
  }

  /**
   * Where each row's CI runs went, per merged PR: chain runs that concluded (landed or failed),
   * chain runs thrown away because a failure ahead of them was discarded with them, and bisection
   * runs; and how many green halves landed as tested.
   */
  private static void spend(List<Simulation.Result> results) {
    System.out.println();
    System.out.println(
        "| scenario | CI runs per merge | concluded chain runs | thrown-away speculation |"
            + " bisection runs | green halves landed |");
    System.out.println("|---|---:|---:|---:|---:|---:|");
    for (Simulation.Result r : results) {
      Simulation.CiSpend spend = r.spend();
      double merged = Math.max(1, r.merged());
      int concluded = spend.runs() - spend.bisection() - spend.thrownAway();
      System.out.printf(
          Locale.ROOT,
          "| %s | %.2f | %.2f | %.2f | %.2f | %d |%n",
          r.scenario().name(),
          r.ciRunsPerMerge(),
          concluded / merged,
          spend.thrownAway() / merged,
          spend.bisection() / merged,
          spend.halvesLanded());
    }
  }

  private static void table(List<Simulation.Result> results) {
    System.out.println(
        "| scenario | merged/h | speculation bound/h | capacity/h | CI runs per merge |"
            + " Dorfman cost | time in queue p50 / p95 h | good PRs wrongly failed |"
            + " broken merged | ETA error p50 h |");
    System.out.println("|---|---:|---:|---:|---:|---:|---|---:|---:|---:|");
    for (Simulation.Result r : results) {
      Scenario s = r.scenario();
      System.out.printf(
          Locale.ROOT,
          "| %s | %.2f | %.2f | %.0f | %.2f | %.2f | %.1f / %.1f | %d of %d (%.2f %%) | %d |"
              + " %.2f |%n",
          s.name(),
          r.mergedPerHour(),
          s.perHour(s.speculationBoundPerT()) * Math.max(1, s.lanes()),
          s.perHour(s.concurrency()) * s.batchSize() * Math.max(1, s.lanes()),
          r.ciRunsPerMerge(),
          s.dorfmanCost(),
          r.p50Hours(),
          r.p95Hours(),
          r.wronglyFailed(),
          r.merged() + r.wronglyFailed(),
          100.0 * r.wronglyFailed() / Math.max(1, r.merged() + r.wronglyFailed()),
          r.brokenMerged(),
          r.etaErrorP50Hours());
    }
  }

  /** Issue 4's targets, each a ratio of two rows of this run. */
  private static void targets(List<Simulation.Result> results) {
    Simulation.Result plain = results.get(1);
    Simulation.Result batching = results.get(3);
    Simulation.Result flakyOff = results.get(4);
    Simulation.Result flakyOn = results.get(5);
    double bound = plain.scenario().perHour(plain.scenario().speculationBoundPerT());
    System.out.println();
    System.out.println("| target | measured | goal |");
    System.out.println("|---|---:|---:|");
    row("plain speculation, of the bound s(1 − s^C)/p", plain.mergedPerHour() / bound, "≥ 0.95");
    row(
        "batching B = 4, throughput vs plain speculation",
        batching.mergedPerHour() / plain.mergedPerHour(),
        "≥ 1.80");
    row(
        "batching B = 4, CI runs per merge vs plain speculation",
        batching.ciRunsPerMerge() / plain.ciRunsPerMerge(),
        "≤ 0.60");
    row("flakes, good PRs wrongly failed, anti-flake on (%)", 100 * failedShare(flakyOn), "≤ 0.50");
    row("flakes, good PRs wrongly failed, anti-flake off (%)", 100 * failedShare(flakyOff), "—");
    Simulation.Result lanes = results.get(6);
    row(
        lanes.scenario().name() + ", throughput vs single mode",
        lanes.mergedPerHour() / plain.mergedPerHour(),
        "≥ 3.50");
    row("batching B = 4, CI runs per merge (issue 29)", batching.ciRunsPerMerge(), "≤ 0.60");
    for (Simulation.Result r : results) {
      row(
          r.scenario().name() + ": ETA error at submit p50 / time in queue p50",
          r.etaErrorP50Hours() / r.p50Hours(),
          "≤ 0.25");
    }
    row(
        "broken PRs merged, all scenarios",
        results.stream().mapToInt(Simulation.Result::brokenMerged).sum(),
        "0");
  }

  private static double failedShare(Simulation.Result r) {
    return r.wronglyFailed() / (double) Math.max(1, r.merged() + r.wronglyFailed());
  }

  private static void row(String target, double measured, String goal) {
    System.out.printf(Locale.ROOT, "| %s | %.2f | %s |%n", target, measured, goal);
  }
}
