package dev.trainyard.bench.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Issue 29's rows: the self-tuning scheduler against the best fixed setting of the same run. */
final class SelfTuningRows {
  private SelfTuningRows() {}

  static void print(List<Sweep> sweeps, Simulation.Result window) {
    System.out.println();
    System.out.println(
        "| scenario | merged/h | CI runs per merge | time in queue p50 / p95 h |"
            + " good PRs wrongly failed | broken merged |");
    System.out.println("|---|---:|---:|---|---:|---:|");
    List<Simulation.Result> all = new ArrayList<>();
    for (Sweep sweep : sweeps) {
      all.addAll(sweep.fixed());
      all.add(sweep.adaptive());
    }
    all.add(window);
    for (Simulation.Result r : all) {
      System.out.printf(
          Locale.ROOT,
          "| %s | %.2f | %.2f | %.1f / %.1f | %d | %d |%n",
          r.scenario().name(),
          r.mergedPerHour(),
          r.ciRunsPerMerge(),
          r.p50Hours(),
          r.p95Hours(),
          r.wronglyFailed(),
          r.brokenMerged());
    }
    System.out.println();
    System.out.println("| target (issue 29) | measured | goal |");
    System.out.println("|---|---:|---:|");
    for (Sweep sweep : sweeps) {
      Simulation.Result best = sweep.bestFixed();
      Simulation.Result adaptive = sweep.adaptive();
      String against = " vs best fixed (" + best.scenario().name() + ")";
      boolean moving = sweep.rate().laterBrokenRate() != sweep.rate().brokenRate();
      row(
          sweep.rate().name() + ", adaptive B, throughput" + against,
          adaptive.mergedPerHour() / best.mergedPerHour(),
          moving ? "≥ 1.15" : "≥ 0.95");
      if (!moving) {
        row(
            sweep.rate().name() + ", adaptive B, CI runs per merge" + against,
            adaptive.ciRunsPerMerge() / best.ciRunsPerMerge(),
            "≤ 1.05");
      }
      row(
          sweep.rate().name() + ", adaptive B, time in queue p95" + against,
          adaptive.p95Hours() / best.p95Hours(),
          "≤ 1.10");
    }
    Simulation.Result plain =
        sweeps.stream()
            .filter(s -> s.rate().brokenRate() == 0.15)
            .findFirst()
            .orElseThrow()
            .unbatched();
    row(
        "p = 15 %, adaptive concurrency, CI runs per merge vs plain speculation",
        window.ciRunsPerMerge() / plain.ciRunsPerMerge(), "≤ 0.70");
    row(
        "p = 15 %, adaptive concurrency, throughput vs plain speculation",
        window.mergedPerHour() / plain.mergedPerHour(), "≥ 0.90");
    row(
        "broken PRs merged / good PRs wrongly failed, these rows",
        all.stream().mapToInt(r -> r.brokenMerged() + r.wronglyFailed()).sum(),
        "0");
  }

  private static void row(String target, double measured, String goal) {
    System.out.printf(Locale.ROOT, "| %s | %.2f | %s |%n", target, measured, goal);
  }
}
