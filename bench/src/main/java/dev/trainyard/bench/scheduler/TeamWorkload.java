package dev.trainyard.bench.scheduler;

import java.time.Duration;
import java.util.Locale;

/**
 * A workload like real teams' (issue 53): open-loop arrivals at a load {@code load} of the queue's
 * speculation capacity, shaped by the week when {@code weekly} (weekday working hours at 3× the
 * mean, nights and weekends quiet); each PR's risk drawn from Beta({@code riskAlpha}, {@code
 * riskBeta}) (0, 0: every PR has {@code riskMean}) and seen through a predictor of quality {@code
 * auc}; {@code pairShare} of PRs break only together with an earlier queued PR touching the same
 * targets; CI outages every {@code outageEveryHours} on average (0: none), each about {@code
 * outageMinutes} long, during which {@code outageRed} of the runs ending then are red; flaky tests
 * that make {@code flakeRate} of green runs red, per test with a heavy tail and sticky; CI time
 * log-normal around {@code ciMedian} when {@code logNormalCi} (else 0.8–1.2 of it, as the other
 * rows), red runs ending early; {@code pushedShare} of PRs pushed to while queued and {@code
 * stackedShare} stacked on a queued PR. Arrivals stop after {@code hours}; the queue then drains
 * for up to {@code drainHours}.
 */
record TeamWorkload(
    String name,
    double load,
    boolean weekly,
    double riskMean,
    double riskAlpha,
    double riskBeta,
    double auc,
    double pairShare,
    double outageEveryHours,
    double outageMinutes,
    double outageRed,
    double flakeRate,
    boolean logNormalCi,
    Duration ciMedian,
    double pushedShare,
    double stackedShare,
    int hours,
    int drainHours) {

  /**
   * The concurrency whose capacity the load is a share of, for every queue measured in the world:
   * so each meets the same arrivals.
   */
  static final int REFERENCE_CONCURRENCY = 10;

  /** Of the targets a PR touches: PRs of one group can break together. */
  static final int TARGET_GROUPS = 12;

  /** The CI time's spread when log-normal: σ of its logarithm. */
  static final double CI_SIGMA = 0.5;

  /** Today's world at an open-loop load: one risk, one CI time, independent flakes. */
  static TeamWorkload homogeneous(double load, int hours) {
    return new TeamWorkload(
        "homogeneous",
        load,
        false,
        0.05,
        0,
        0,
        0.5,
        0,
        0,
        0,
        0,
        0.03,
        false,
        Duration.ofMinutes(30),
        0,
        0,
        hours,
        hours / 2);
  }

  /**
   * A team's week: weekday peaks, skewed risk (Beta(0.25, 4.75), mean 5 %) seen at {@code auc},
   * heavy-tailed sticky flaky tests, log-normal CI, pushes and stacks.
   */
  static TeamWorkload skewed(double load, double auc, int hours) {
    return new TeamWorkload(
        String.format(Locale.ROOT, "skewed risk, AUC %.2f", auc),
        load,
        true,
        0.05,
        0.25,
        4.75,
        auc,
        0,
        0,
        0,
        0,
        0.03,
        true,
        Duration.ofMinutes(30),
        0.05,
        0.10,
        hours,
        hours / 2);
  }

  /** A team's week with CI outages: one every ~2 days, ~30 min, 80 % of the runs then red. */
  static TeamWorkload bursty(double load, int hours) {
    return skewed(load, 0.7, hours).breaking("bursty outages", 0, 48, 30, 0.8);
  }

  /** A team's week where 5 % of PRs break only together with a queued PR of the same targets. */
  static TeamWorkload pairwise(double load, int hours) {
    return skewed(load, 0.7, hours).breaking("pairwise breaks", 0.05, 0, 0, 0);
  }

  /** This week with other ways to break: pairs and outages. */
  private TeamWorkload breaking(
      String newName, double pairs, double outageEvery, double outageLength, double outageReds) {
    return new TeamWorkload(
        newName,
        load,
        weekly,
        riskMean,
        riskAlpha,
        riskBeta,
        auc,
        pairs,
        outageEvery,
        outageLength,
        outageReds,
        flakeRate,
        logNormalCi,
        ciMedian,
        pushedShare,
        stackedShare,
        hours,
        drainHours);
  }

  /** The mean CI time of a green run. */
  Duration ciMean() {
    if (!logNormalCi) {
      return ciMedian;
    }
    return Duration.ofMillis((long) (ciMedian.toMillis() * Math.exp(CI_SIGMA * CI_SIGMA / 2)));
  }

  /**
   * The queue's capacity at {@code concurrency} runs: plain speculation's merges per hour with the
   * mean risk, s(1 − s^C)/p per mean CI time — what {@code load} is a share of.
   */
  double capacityPerHour(int concurrency) {
    double s = 1 - riskMean;
    double perRun = s * (1 - Math.pow(s, concurrency)) / riskMean;
    return perRun * 60.0 / (ciMean().toSeconds() / 60.0);
  }

  /** Every parameter, for the run's header. */
  String describe(int concurrency) {
    return String.format(
        Locale.ROOT,
        "%s: load ρ = %.2f of %.2f merges/h (C = %d) → %.2f arrivals/h%s; risk %s; predictor AUC"
            + " %.2f; pairs %.0f %%; outages %s; flakes %.0f %% of green runs (%s; CI uploads"
            + " every run's results, a failed test is excused after one flake on record, the"
            + " flaky-tests service saw %d days of the team's CI before, %d runs a PR: %d runs,"
            + " and learns nothing from the queue's own commits); CI %s;"
            + " pushed %.0f %%, stacked %.0f %%; %d h of arrivals, up to %d h to drain",
        name,
        load,
        capacityPerHour(concurrency),
        concurrency,
        load * capacityPerHour(concurrency),
        weekly ? " (weekdays 09–18 UTC at 3× the mean, other hours 0.27×)" : " (Poisson)",
        riskAlpha > 0
            ? String.format(
                Locale.ROOT, "Beta(%.2f, %.2f), mean %.2f", riskAlpha, riskBeta, riskMean)
            : String.format(Locale.ROOT, "%.2f for every PR", riskMean),
        auc,
        100 * pairShare,
        outageEveryHours > 0
            ? String.format(
                Locale.ROOT,
                "every %.0f h on average, ~%.0f min, %.0f %% of runs red",
                outageEveryHours,
                outageMinutes,
                100 * outageRed)
            : "none",
        100 * flakeRate,
        logNormalCi ? "per test, heavy-tailed, sticky" : "independent per run",
        FlakyTestList.DAYS_BEFORE,
        FlakyTestList.RUNS_PER_PR,
        FlakyTestList.runsBefore(load * capacityPerHour(concurrency)),
        logNormalCi
            ? String.format(
                Locale.ROOT,
                "log-normal, median %d min, σ %.1f, red runs end early",
                ciMedian.toMinutes(),
                CI_SIGMA)
            : String.format(Locale.ROOT, "0.8–1.2 × %d min", ciMedian.toMinutes()),
        100 * pushedShare,
        100 * stackedShare,
        hours,
        drainHours);
  }
}
