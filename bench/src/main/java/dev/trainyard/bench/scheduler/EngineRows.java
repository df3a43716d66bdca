package dev.trainyard.bench.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Issue 47's rows: flakes in batching and bisection (good PRs wrongly failed, CI runs per merge),
 * PRs spanning two lanes of a parallel queue at 80 and 95 % load (their p95 at two run lengths,
 * with the span barrier and without), and the forecast's error where PRs are not ready, the queue
 * freezes daily, or it lands only on weekdays.
 */
record EngineRows(
    List<Simulation.Result> flakes,
    double saturatedPerHour,
    List<Simulation.Result> spanning,
    List<Simulation.Result> forecasts) {

  /** The share of PRs spanning two groups, and the load their queue runs at. */
  static final double SPANNING = 0.05;

  static final List<Double> LOADS = List.of(0.8, 0.95);

  static EngineRows run(Scenario plain) {
    Scenario batch = plain.batches(4);
    List<Simulation.Result> flakes = new ArrayList<>();
    for (Scenario s :
        List.of(
            batch.named("batching B = 4, skip redundant tests, f = 0"),
            batch.flakes(0.03).named("batching B = 4, skip redundant tests, flakes f = 3 %"),
            batch.bisectingBothHalves().named("batching B = 4, both halves tested, f = 0"),
            batch
                .bisectingBothHalves()
                .flakes(0.03)
                .named("batching B = 4, both halves tested, flakes f = 3 %"))) {
      flakes.add(progress(new Simulation(s).run()));
    }
    Scenario lanes = plain.parallel(4);
    double capacity =
        progress(
                new Simulation(
                        lanes
                            .openLoop(0, SPANNING, true)
                            .named("parallel, 4 groups, saturated")
                            .lasting(100))
                    .run())
            .mergedPerHour();
    List<Simulation.Result> spanning = new ArrayList<>();
    for (double load : LOADS) {
      for (boolean barrier : List.of(false, true)) {
        for (int hours : List.of(100, 400)) {
          String name =
              String.format(
                  Locale.ROOT,
                  "load %.0f %%, %s",
                  100 * load,
                  barrier ? "span barrier 30 min" : "no span barrier");
          spanning.add(
              progress(
                  new Simulation(
                          lanes
                              .openLoop(load * capacity, SPANNING, barrier)
                              .lasting(hours)
                              .named(name))
                      .run()));
        }
      }
    }
    List<Simulation.Result> forecasts = new ArrayList<>();
    for (Scenario s :
        List.of(
            plain.gated(0.2, false, false).named("20 % submitted not ready, ready after 0–4 h"),
            plain.gated(0, true, false).named("a 2 h freeze with a known end, daily"),
            plain.gated(0, false, true).named("weekday window 09:00–17:00 New York"))) {
      forecasts.add(progress(new Simulation(s).run()));
    }
    return new EngineRows(flakes, capacity, spanning, forecasts);
  }

  /** Says on stderr that a row is done: the whole set takes minutes. */
  private static Simulation.Result progress(Simulation.Result r) {
    System.err.printf(
        Locale.ROOT,
        "%s (%d h): %d merged%n",
        r.scenario().name(),
        r.scenario().hours(),
        r.merged());
    return r;
  }

  void print() {
    System.out.println();
    System.out.println(
        "| batching with flakes | merged/h | CI runs per merge | good PRs wrongly failed |"
            + " broken merged |");
    System.out.println("|---|---:|---:|---:|---:|");
    for (Simulation.Result r : flakes) {
      int concluded = r.merged() + r.wronglyFailed();
      System.out.printf(
          Locale.ROOT,
          "| %s | %.2f | %.2f | %d of %d (%.2f %%) | %d |%n",
          r.scenario().name(),
          r.mergedPerHour(),
          r.ciRunsPerMerge(),
          r.wronglyFailed(),
          concluded,
          100.0 * r.wronglyFailed() / Math.max(1, concluded),
          r.brokenMerged());
    }
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "Parallel, 4 groups, %.0f %% of PRs spanning two, open-loop arrivals at a share of the"
            + " saturated rate (%.2f/h measured in this run):%n%n",
        100 * SPANNING,
        saturatedPerHour);
    System.out.println(
        "| parallel queue | hours | merged/h | time in queue p95 h | spanning PRs |"
            + " spanning p95 h (waiting ones included) |");
    System.out.println("|---|---:|---:|---:|---:|---:|");
    for (Simulation.Result r : spanning) {
      System.out.printf(
          Locale.ROOT,
          "| %s | %d | %.2f | %.1f | %d | %.1f |%n",
          r.scenario().name(),
          r.scenario().hours(),
          r.mergedPerHour(),
          r.p95Hours(),
          r.spanningPrs(),
          r.spanningP95Hours());
    }
    System.out.println();
    System.out.println(
        "| forecast | ETA error p50 h | time in queue p50 h | error / time in queue | goal |");
    System.out.println("|---|---:|---:|---:|---:|");
    for (Simulation.Result r : forecasts) {
      System.out.printf(
          Locale.ROOT,
          "| %s | %.2f | %.2f | %.2f | ≤ 0.25 |%n",
          r.scenario().name(),
          r.etaErrorP50Hours(),
          r.p50Hours(),
          r.etaErrorP50Hours() / r.p50Hours());
    }
  }
}
