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
 * <p>Arguments: {@code [hours] [seed]}.
 */
public final class SchedulerBenchmark {
  private SchedulerBenchmark() {}

  public static void main(String[] args) {
    int hours = args.length > 0 ? Integer.parseInt(args[0]) : 500;
    long seed = args.length > 1 ? Long.parseLong(args[1]) : 42;
    Duration t = Duration.ofMinutes(30);
    List<Scenario> scenarios =
        List.of(
            new Scenario("serial queue (C = 1)", t, 0.05, 0, 1, 50, hours, seed),
            new Scenario("plain speculation (C = 10)", t, 0.05, 0, 10, 50, hours, seed),
            new Scenario("plain speculation, no broken PRs", t, 0, 0, 10, 50, hours, seed),
            new Scenario("plain speculation, flakes f = 3 %", t, 0.05, 0.03, 10, 50, hours, seed));
    List<Simulation.Result> results = new ArrayList<>();
    long started = System.nanoTime();
    for (Scenario s : scenarios) {
      results.add(new Simulation(s).run());
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    System.out.printf(
        Locale.ROOT,
        "%nT = %d min, %d simulated hours per scenario, seed %d (%.1f s)%n%n",
        t.toMinutes(),
        hours,
        seed,
        seconds);
    System.out.println(
        "| scenario | merged/h | bound/h | of bound | capacity/h | CI runs per merge |"
            + " time in queue p50 / p95 h | good PRs wrongly failed | broken merged |");
    System.out.println("|---|---:|---:|---:|---:|---:|---|---:|---:|");
    for (Simulation.Result r : results) {
      Scenario s = r.scenario();
      double bound = s.perHour(s.speculationBoundPerT());
      double capacity = s.perHour(s.concurrency());
      System.out.printf(
          Locale.ROOT,
          "| %s | %.2f | %.2f | %.0f %% | %.0f | %.2f | %.1f / %.1f | %d of %d | %d |%n",
          s.name(),
          r.mergedPerHour(),
          bound,
          100 * r.mergedPerHour() / bound,
          capacity,
          r.ciRunsPerMerge(),
          r.p50Hours(),
          r.p95Hours(),
          r.wronglyFailed(),
          r.merged() + r.wronglyFailed(),
          r.brokenMerged());
    }
  }
}
