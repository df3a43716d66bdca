package dev.trainyard.bench.scheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;

/**
 * Issue 53's rows: each team workload at each load, run by a grid of fixed batch sizes and
 * concurrencies and by today's self-tuning queue, in the same seeded world. Every queue has the
 * anti-flake settings a team would set (pendingFailureDepth 1, optimistic merge).
 */
final class TeamRows {
  static final int[] BATCHES = {1, 4, 8};
  static final int[] CONCURRENCIES = {5, 10};
  static final double[] LOADS = {0.8, 0.95};

  /** CI minutes per merged PR the budgeted self-tuning rows may spend; the first is judged. */
  static final long[] BUDGETS = {30, 40};

  static final String TODAY = "today's self-tuning queue";
  static final String BUDGETED = budgeted(BUDGETS[0]);

  /**
   * Worlds (seeds from the run's own) each stability run is made in: one p95 of a run half as long
   * as the rows varies by about a quarter between seeds, so the mean over these is judged.
   */
  static final int STABILITY_SEEDS = 8;

  /** The budgeted queue with each PR's predicted risk on its submit: the whole new scheduler. */
  static final String PREDICTED_BUDGETED = "predicted risk, " + BUDGETED;

  /** One queue in one world: the world, the queue's name and what it measured. */
  record Row(TeamWorkload world, String queue, Simulation.Result result) {
    TeamLedger.Figures figures() {
      return result.team();
    }
  }

  private final List<Row> rows = new ArrayList<>();
  private final List<TeamWorkload> worlds = new ArrayList<>();
  private final List<Row> stability = new ArrayList<>();

  private TeamRows() {}

  static TeamRows run(int hours, long seed) {
    TeamRows rows = new TeamRows();
    List<BiFunction<Double, Integer, TeamWorkload>> kinds =
        List.of(
            TeamWorkload::homogeneous,
            (load, h) -> TeamWorkload.skewed(load, 0.7, h),
            (load, h) -> TeamWorkload.skewed(load, 0.85, h),
            TeamWorkload::bursty,
            TeamWorkload::pairwise);
    for (BiFunction<Double, Integer, TeamWorkload> kind : kinds) {
      for (double load : LOADS) {
        TeamWorkload world = kind.apply(load, hours);
        rows.worlds.add(world);
        for (int c : CONCURRENCIES) {
          for (int b : BATCHES) {
            rows.add(
                world, String.format(Locale.ROOT, "fixed B = %d, C = %d", b, c), fixed(b, c, seed));
          }
        }
        rows.add(world, TODAY, adaptive(seed));
        for (long budget : BUDGETS) {
          rows.add(world, budgeted(budget), adaptive(seed).withCiBudget(budget));
        }
        rows.add(world, "Zuul's window (20, floor 3, +1, ÷2)", zuul(seed), Rival.ZUUL);
        for (int c : CONCURRENCIES) {
          rows.add(
              world,
              String.format(Locale.ROOT, "SubmitQueue's ranking, C = %d", c),
              fixed(1, c, seed),
              Rival.SUBMIT_QUEUE);
        }
        rows.add(
            world,
            "risk-aware prototype, B = 8, C = 10",
            fixed(8, TeamWorkload.REFERENCE_CONCURRENCY, seed),
            Rival.RISK_AWARE);
        rows.add(
            world,
            "predicted risk, B = 8, C = 10",
            fixed(8, TeamWorkload.REFERENCE_CONCURRENCY, seed),
            Rival.PREDICTED_RISK);
        rows.add(world, "predicted risk, self-tuning", adaptive(seed), Rival.PREDICTED_RISK);
        rows.add(
            world,
            PREDICTED_BUDGETED,
            adaptive(seed).withCiBudget(BUDGETS[0]),
            Rival.PREDICTED_RISK);
      }
    }
    for (long budget : new long[] {0, BUDGETS[0]}) {
      for (int h : new int[] {hours / 2, hours * 2}) {
        TeamWorkload world = TeamWorkload.homogeneous(0.95, h);
        for (int k = 0; k < STABILITY_SEEDS; k++) {
          Scenario queue = adaptive(seed + k).withCiBudget(budget).lasting(h);
          rows.stability.add(
              new Row(
                  world,
                  budget == 0 ? TODAY : budgeted(budget),
                  new Simulation(queue, world).run()));
        }
      }
    }
    return rows;
  }

  private static String budgeted(long minutes) {
    return String.format(Locale.ROOT, "self-tuning, CI budget %d min", minutes);
  }

  private void add(TeamWorkload world, String queue, Scenario scenario) {
    add(world, queue, scenario, Rival.NONE);
  }

  private void add(TeamWorkload world, String queue, Scenario scenario, Rival rival) {
    Scenario lasting = scenario.lasting(world.hours()).named(world.name() + ", " + queue);
    rows.add(new Row(world, queue, new Simulation(lasting, world, rival).run()));
  }

  /** One change a run, no anti-flake; the window sets the concurrency. */
  private static Scenario zuul(long seed) {
    return Scenario.plain("zuul", Duration.ofMinutes(30), 0.05, ZuulWindow.START, 1, seed);
  }

  private static Scenario fixed(int batch, int concurrency, long seed) {
    return Scenario.plain("fixed", Duration.ofMinutes(30), 0.05, concurrency, 1, seed)
        .batches(batch)
        .antiFlake(1, true);
  }

  private static Scenario adaptive(long seed) {
    return fixed(4, TeamWorkload.REFERENCE_CONCURRENCY, seed)
        .withAdaptiveBatching()
        .withAdaptiveConcurrency();
  }

  void print() {
    System.out.println();
    System.out.println("### Team workloads (issue 53)");
    System.out.println();
    for (TeamWorkload world : worlds) {
      // what the run offered (weekly arrivals over part weeks are not exactly the mean), read
      // from a queue that was not stopped early
      int arrived =
          rows.stream()
              .filter(r -> r.world() == world)
              .mapToInt(r -> r.figures().arrived())
              .max()
              .orElse(0);
      System.out.printf(
          Locale.ROOT,
          "- %s; offered: %d PRs in %d h, %.2f/h%n",
          world.describe(TeamWorkload.REFERENCE_CONCURRENCY),
          arrived,
          world.hours(),
          arrived / (double) world.hours());
    }
    System.out.println();
    System.out.println(
        "| workload | ρ | queue | merged | good PRs' time to merge p50 / p95 h | not merged at"
            + " the end | CI minutes per merged PR | good PRs wrongly failed | broken merged |"
            + " CI's own reds on good trees | predictor AUC |");
    System.out.println("|---|---:|---|---:|---|---:|---:|---:|---:|---:|---:|");
    for (Row row : rows) {
      print(row);
    }
    targets();
  }

  private static void print(Row row) {
    TeamLedger.Figures f = row.figures();
    Simulation.Result r = row.result();
    System.out.printf(
        Locale.ROOT,
        "| %s | %.2f | %s | %d | %s%.1f / %.1f | %d of %d | %.0f | %d (%.2f %%) | %d | %.1f %% |"
            + " %.2f |%n",
        row.world().name(),
        row.world().load(),
        row.queue(),
        r.merged(),
        f.unstableAt() == null
            ? ""
            : String.format(
                Locale.ROOT,
                "over %d PRs in the queue at hour %d, stopped: ≥ ",
                TeamLedger.UNSTABLE_AT,
                Duration.between(Simulation.START, f.unstableAt()).toHours()),
        f.p50Hours(),
        f.p95Hours(),
        f.openAtEnd(),
        f.goodPrs(),
        f.ciMinutesPerMerge(),
        f.wronglyFailed(),
        100.0 * f.wronglyFailed() / Math.max(1, f.goodPrs()),
        r.brokenMerged(),
        100 * f.flakeRate(),
        f.predictorAuc());
  }

  /** The targets of issue 53 this run can read. */
  private void targets() {
    System.out.println();
    System.out.println("| target | measured | goal |");
    System.out.println("|---|---:|---:|");
    for (TeamWorkload world : worlds) {
      if (!world.name().equals("homogeneous")) {
        continue;
      }
      double bestFixed =
          rows(world, "fixed").stream()
              .mapToDouble(r -> r.figures().p95Hours())
              .min()
              .orElse(Double.NaN);
      for (String queue : List.of(TODAY, BUDGETED, PREDICTED_BUDGETED)) {
        row(
            String.format(
                Locale.ROOT, "homogeneous, ρ = %.2f: %s p95 / best fixed p95", world.load(), queue),
            first(world, queue).figures().p95Hours() / bestFixed,
            "≤ 1.05");
      }
    }
    for (TeamWorkload world : worlds) {
      if (world.name().equals("homogeneous") || world.name().startsWith("pairwise")) {
        continue;
      }
      Row rival =
          rows.stream()
              .filter(r -> r.world() == world)
              .filter(r -> r.queue().startsWith("Zuul") || r.queue().startsWith("SubmitQueue"))
              .min(java.util.Comparator.comparingDouble(r -> r.figures().p95Hours()))
              .orElseThrow();
      for (String queue : List.of(BUDGETED, PREDICTED_BUDGETED)) {
        Row mine = first(world, queue);
        row(
            String.format(
                Locale.ROOT,
                "%s, ρ = %.2f: %s p95 / the better rival's (%s; CI min per merged PR %.0f against"
                    + " %.0f)",
                world.name(),
                world.load(),
                queue,
                rival.queue(),
                mine.figures().ciMinutesPerMerge(),
                rival.figures().ciMinutesPerMerge()),
            mine.figures().p95Hours() / rival.figures().p95Hours(),
            "≤ 0.80");
      }
    }
    for (String queue :
        List.of(
            "fixed",
            "today",
            "self-tuning, CI budget",
            "Zuul",
            "SubmitQueue",
            "risk-aware",
            "predicted risk",
            PREDICTED_BUDGETED)) {
      List<Row> those = rows.stream().filter(r -> r.queue().startsWith(queue)).toList();
      int failed = those.stream().mapToInt(r -> r.figures().wronglyFailed()).sum();
      int good = those.stream().mapToInt(r -> r.figures().goodPrs()).sum();
      row(
          "good PRs wrongly failed (%), all rows of: " + queue,
          100.0 * failed / Math.max(1, good),
          "≤ 0.10");
    }
    int failed = rows.stream().mapToInt(r -> r.figures().wronglyFailed()).sum();
    int inOutages = rows.stream().mapToInt(r -> r.figures().failedInOutages()).sum();
    int byFlakyTests = rows.stream().mapToInt(r -> r.figures().failedByFlakyTests()).sum();
    row(
        "of the good PRs wrongly failed, all rows: first by an outage's red (%)",
        100.0 * inOutages / Math.max(1, failed), "");
    row(
        "of the good PRs wrongly failed, all rows: first by a flaky test's red (%)",
        100.0 * byFlakyTests / Math.max(1, failed), "");
    row(
        "second chances for a red on excused flaky tests (FlakyFailureForgiven), all rows, per 100"
            + " merged",
        100.0
            * rows.stream().mapToInt(r -> r.figures().retested()).sum()
            / Math.max(1, rows.stream().mapToInt(r -> r.result().merged()).sum()),
        "");
    row(
        "broken PRs merged, all rows",
        rows.stream().mapToInt(r -> r.result().brokenMerged()).sum(),
        "0");
    for (int i = 0; i + 2 * STABILITY_SEEDS <= stability.size(); i += 2 * STABILITY_SEEDS) {
      List<Row> shorter = stability.subList(i, i + STABILITY_SEEDS);
      List<Row> longer = stability.subList(i + STABILITY_SEEDS, i + 2 * STABILITY_SEEDS);
      double[] perSeed = new double[STABILITY_SEEDS];
      for (int k = 0; k < STABILITY_SEEDS; k++) {
        perSeed[k] = p95(longer.get(k)) / p95(shorter.get(k));
      }
      row(
          String.format(
              Locale.ROOT,
              "homogeneous, ρ = 0.95, %s: p95 at %d h / p95 at %d h, means of %d seeds (per seed"
                  + " %.2f–%.2f)",
              longer.get(0).queue(),
              longer.get(0).world().hours(),
              shorter.get(0).world().hours(),
              STABILITY_SEEDS,
              Arrays.stream(perSeed).min().orElse(0),
              Arrays.stream(perSeed).max().orElse(0)),
          meanP95(longer) / meanP95(shorter),
          "≤ 1.10");
    }
    System.out.println();
    System.out.println(
        "How often adaptive concurrency narrowed the window (the self-tuning queues, in the"
            + " table's order):");
    for (TeamWorkload world : worlds) {
      System.out.printf(
          Locale.ROOT,
          "- %s, ρ = %.2f: %s%n",
          world.name(),
          world.load(),
          String.join(
              "; ",
              rows.stream()
                  .filter(r -> r.world() == world && r.queue().contains("self-tuning"))
                  .map(r -> Integer.toString(r.result().windowNarrowed()))
                  .toList()));
    }
  }

  private List<Row> rows(TeamWorkload world, String queue) {
    return rows.stream().filter(r -> r.world() == world && r.queue().startsWith(queue)).toList();
  }

  private Row first(TeamWorkload world, String queue) {
    return rows(world, queue).stream().findFirst().orElseThrow();
  }

  private static double p95(Row row) {
    return row.figures().p95Hours();
  }

  private static double meanP95(List<Row> runs) {
    return runs.stream().mapToDouble(TeamRows::p95).average().orElse(0);
  }

  private static void row(String target, double measured, String goal) {
    System.out.printf(Locale.ROOT, "| %s | %.2f | %s |%n", target, measured, goal);
  }
}
