package dev.trainyard.bench.scheduler;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The seeded world of a {@link TeamWorkload}: when PRs arrive, what each one is (its risk, whether
 * it is broken, what the predictor says of it, its targets, a partner it breaks with, a PR it is
 * stacked on, a push while queued) and how each CI run goes. Each aspect draws from a stream of its
 * own, so two schedulers given the same seed meet the same PRs at the same times and the same
 * outages, whatever runs they start.
 */
final class TeamWorld {
  /** Weekday working hours (UTC) run at this multiple of the mean arrival rate. */
  static final double PEAK = 3;

  /** The other hours of the week, so that the week's mean is 1: (168 − 45 × 3) / 123. */
  static final double QUIET = (168 - 45 * PEAK) / 123;

  private static final int FLAKY_TESTS = 100;
  private static final double TAIL = 1.1;
  private static final double STICKY_FACTOR = 5;
  private static final Duration STICKY_FOR = Duration.ofHours(12);
  private static final int PRESAMPLE = 20_000;
  private static final int CALIBRATION_BINS = 20;

  /** What a PR is, drawn once when it is first submitted. */
  record Pr(
      long number,
      double risk,
      boolean broken,
      double predicted,
      int group,
      Long partner,
      Long parent,
      Duration pushAfter) {}

  /** How one CI run went: its length and whether it was red. */
  record Run(Duration duration, boolean red) {}

  private final TeamWorkload workload;
  private final double arrivalsPerHour;
  private final Random arrivals;
  private final Random traits;
  private final Random ci;
  private final List<Instant[]> outages = new ArrayList<>();
  private final double[] flakeChance = new double[FLAKY_TESTS];
  private final Instant[] stickyUntil = new Instant[FLAKY_TESTS];
  private final Map<Long, Pr> prs = new HashMap<>();
  private final Map<Long, List<Long>> partneredBy = new HashMap<>();
  private final double noise;
  private final double measuredAuc;
  private final double[] binEdges;
  private final double[] binRisk;

  TeamWorld(TeamWorkload workload, int concurrency, long seed, Instant start) {
    this.workload = workload;
    this.arrivalsPerHour = workload.load() * workload.capacityPerHour(concurrency);
    this.arrivals = new Random(seed);
    this.traits = new Random(seed * 31 + 1);
    this.ci = new Random(seed * 31 + 2);
    Random setup = new Random(seed * 31 + 3);
    drawOutages(setup, start);
    drawFlakyTests(setup);
    this.noise = calibrate(new Random(seed * 31 + 4));
    Predictor predictor = predictor(new Random(seed * 31 + 5), noise);
    this.measuredAuc = predictor.auc;
    this.binEdges = predictor.edges;
    this.binRisk = predictor.risk;
  }

  int drainHours() {
    return workload.drainHours();
  }

  double arrivalsPerHour() {
    return arrivalsPerHour;
  }

  /** The predictor's AUC on a presample of this world's PRs. */
  double measuredAuc() {
    return measuredAuc;
  }

  /** The arrival rate at {@code at} as a multiple of the mean. */
  double shape(Instant at) {
    if (!workload.weekly()) {
      return 1;
    }
    ZonedDateTime t = at.atZone(ZoneOffset.UTC);
    boolean weekday =
        t.getDayOfWeek() != DayOfWeek.SATURDAY && t.getDayOfWeek() != DayOfWeek.SUNDAY;
    return weekday && t.getHour() >= 9 && t.getHour() < 18 ? PEAK : QUIET;
  }

  /** The next arrival after {@code now}: a Poisson process thinned to the week's shape. */
  Instant nextArrival(Instant now) {
    double peak = workload.weekly() ? PEAK : 1;
    Instant at = now;
    while (true) {
      at =
          at.plusMillis((long) (Draws.exponential(arrivals, 1 / (arrivalsPerHour * peak)) * 3.6e6));
      if (arrivals.nextDouble() * peak < shape(at)) {
        return at;
      }
    }
  }

  /**
   * Draws PR {@code number}, submitted while {@code queued} (oldest first) wait: its partner is a
   * queued PR of its targets, and it is stacked on the newest queued PR.
   */
  Pr draw(long number, List<Long> queued) {
    double risk =
        workload.riskAlpha() > 0
            ? Draws.beta(traits, workload.riskAlpha(), workload.riskBeta())
            : workload.riskMean();
    boolean broken = traits.nextDouble() < risk;
    double predicted = predict(risk, traits.nextGaussian());
    int group = traits.nextInt(TeamWorkload.TARGET_GROUPS);
    Long partner = null;
    if (traits.nextDouble() < workload.pairShare()) {
      List<Long> same = queued.stream().filter(q -> prs.get(q).group() == group).toList();
      partner = same.isEmpty() ? null : same.get(traits.nextInt(same.size()));
    }
    Long parent = null;
    if (traits.nextDouble() < workload.stackedShare() && !queued.isEmpty()) {
      parent = queued.get(queued.size() - 1);
    }
    Duration pushAfter = null;
    if (traits.nextDouble() < workload.pushedShare()) {
      pushAfter = Duration.ofMillis((long) (traits.nextDouble() * 2 * 3.6e6));
    }
    Pr pr = new Pr(number, risk, broken, predicted, group, partner, parent, pushAfter);
    prs.put(number, pr);
    if (partner != null) {
      partneredBy.computeIfAbsent(partner, p -> new ArrayList<>()).add(number);
    }
    return pr;
  }

  Pr pr(long number) {
    return prs.get(number);
  }

  /** The PRs that PR {@code number} breaks together with, either way round. */
  List<Long> partners(long number) {
    List<Long> all = new ArrayList<>(partneredBy.getOrDefault(number, List.of()));
    Long partner = prs.get(number).partner();
    if (partner != null) {
      all.add(partner);
    }
    return all;
  }

  /**
   * Whether a PR is good: not broken by itself, and not the later half of a pair whose earlier half
   * was in the tree it ended on.
   */
  boolean breaksWith(long number, Set<Long> tree) {
    Pr pr = prs.get(number);
    return pr.broken() || (pr.partner() != null && tree.contains(pr.partner()));
  }

  /**
   * A run started at {@code start} of the tree {@code tree} (everything landed plus the run's PRs):
   * red when a PR in it is broken or a pair in it breaks together, or as a flake or an outage; red
   * runs end early.
   */
  Run run(Set<Long> tree, Instant start) {
    double full =
        workload.logNormalCi()
            ? Draws.logNormal(ci, workload.ciMedian().toMillis(), TeamWorkload.CI_SIGMA)
            : workload.ciMedian().toMillis() * (0.8 + 0.4 * ci.nextDouble());
    boolean red = tree.stream().anyMatch(n -> breaksWith(n, tree));
    red |= flakes(start);
    double millis = red ? full * (0.3 + 0.7 * ci.nextDouble()) : full;
    Instant end = start.plusMillis((long) millis);
    if (!red && inOutage(end) && ci.nextDouble() < workload.outageRed()) {
      red = true;
    }
    return new Run(Duration.ofMillis((long) millis), red);
  }

  private boolean flakes(Instant at) {
    if (!workload.logNormalCi()) {
      return ci.nextDouble() < workload.flakeRate();
    }
    boolean red = false;
    for (int t = 0; t < FLAKY_TESTS; t++) {
      boolean sticky = stickyUntil[t] != null && at.isBefore(stickyUntil[t]);
      double chance = flakeChance[t] * (sticky ? STICKY_FACTOR : 1);
      if (ci.nextDouble() < chance) {
        red = true;
        stickyUntil[t] = at.plus(STICKY_FOR);
      }
    }
    return red;
  }

  boolean inOutage(Instant at) {
    for (Instant[] outage : outages) {
      if (!at.isBefore(outage[0]) && at.isBefore(outage[1])) {
        return true;
      }
    }
    return false;
  }

  List<Instant[]> outages() {
    return outages;
  }

  private void drawOutages(Random random, Instant start) {
    if (workload.outageEveryHours() <= 0) {
      return;
    }
    Instant last = start.plus(Duration.ofHours(workload.hours() + workload.drainHours()));
    Instant at = start;
    while (true) {
      at = at.plusMillis((long) (Draws.exponential(random, workload.outageEveryHours()) * 3.6e6));
      if (!at.isBefore(last)) {
        return;
      }
      double minutes = Draws.logNormal(random, workload.outageMinutes(), 0.5);
      outages.add(new Instant[] {at, at.plusMillis((long) (minutes * 60_000))});
    }
  }

  /**
   * Per-test flake chances with a heavy (Pareto) tail, scaled so that a green run is red with the
   * workload's flake rate when no test is sticky: Σ −ln(1 − q) = −ln(1 − f).
   */
  private void drawFlakyTests(Random random) {
    double[] weight = new double[FLAKY_TESTS];
    double sum = 0;
    for (int t = 0; t < FLAKY_TESTS; t++) {
      weight[t] = Math.pow(1 - random.nextDouble(), -1 / TAIL);
      sum += weight[t];
    }
    double hazard = -Math.log(1 - workload.flakeRate());
    for (int t = 0; t < FLAKY_TESTS; t++) {
      flakeChance[t] = 1 - Math.exp(-hazard * weight[t] / sum);
    }
  }

  double[] flakeChances() {
    return flakeChance.clone();
  }

  /** The predictor's raw score of a PR of true risk {@code risk}: its log-odds, blurred. */
  private static double score(double risk, double noise, double gaussian) {
    double p = Math.min(Math.max(risk, 1e-9), 1 - 1e-9);
    return Math.log(p / (1 - p)) + noise * gaussian;
  }

  /** What the predictor says of a PR: the mean risk of the presampled PRs with a like score. */
  private double predict(double risk, double gaussian) {
    if (workload.riskAlpha() <= 0) {
      return workload.riskMean();
    }
    double s = score(risk, noise, gaussian);
    int bin = Arrays.binarySearch(binEdges, s);
    bin = bin >= 0 ? bin : -bin - 1;
    return binRisk[Math.min(bin, binRisk.length - 1)];
  }

  /**
   * The blur that holds the predictor's AUC at the workload's: found by bisection on a presample;
   * none when even the true risk tells broken from good less well than asked.
   */
  private double calibrate(Random random) {
    if (workload.riskAlpha() <= 0) {
      return 0;
    }
    double[] risk = new double[PRESAMPLE];
    boolean[] broken = new boolean[PRESAMPLE];
    double[] gaussian = new double[PRESAMPLE];
    for (int i = 0; i < PRESAMPLE; i++) {
      risk[i] = Draws.beta(random, workload.riskAlpha(), workload.riskBeta());
      broken[i] = random.nextDouble() < risk[i];
      gaussian[i] = random.nextGaussian();
    }
    double low = 0;
    double high = 50;
    if (aucAt(low, risk, broken, gaussian) <= workload.auc()) {
      return 0;
    }
    for (int step = 0; step < 30; step++) {
      double mid = (low + high) / 2;
      if (aucAt(mid, risk, broken, gaussian) > workload.auc()) {
        low = mid;
      } else {
        high = mid;
      }
    }
    return (low + high) / 2;
  }

  private static double aucAt(double noise, double[] risk, boolean[] broken, double[] gaussian) {
    double[] scores = new double[risk.length];
    for (int i = 0; i < risk.length; i++) {
      scores[i] = score(risk[i], noise, gaussian[i]);
    }
    return Draws.auc(scores, broken);
  }

  private record Predictor(double[] edges, double[] risk, double auc) {}

  /**
   * Calibrates the blurred score on a fresh presample: quantile bins of the score, each answering
   * the share of its PRs that were broken; and measures the AUC of those answers.
   */
  private Predictor predictor(Random random, double blur) {
    if (workload.riskAlpha() <= 0) {
      return new Predictor(new double[0], new double[] {workload.riskMean()}, 0.5);
    }
    double[][] sample = new double[PRESAMPLE][];
    for (int i = 0; i < PRESAMPLE; i++) {
      double r = Draws.beta(random, workload.riskAlpha(), workload.riskBeta());
      boolean broken = random.nextDouble() < r;
      sample[i] = new double[] {score(r, blur, random.nextGaussian()), broken ? 1 : 0};
    }
    Arrays.sort(sample, (a, b) -> Double.compare(a[0], b[0]));
    int per = PRESAMPLE / CALIBRATION_BINS;
    double[] edges = new double[CALIBRATION_BINS - 1];
    double[] risk = new double[CALIBRATION_BINS];
    double[] scores = new double[PRESAMPLE];
    boolean[] positive = new boolean[PRESAMPLE];
    for (int b = 0; b < CALIBRATION_BINS; b++) {
      double brokenInBin = 0;
      for (int i = b * per; i < (b + 1) * per; i++) {
        brokenInBin += sample[i][1];
      }
      risk[b] = brokenInBin / per;
      if (b < CALIBRATION_BINS - 1) {
        edges[b] = sample[(b + 1) * per][0];
      }
    }
    for (int i = 0; i < PRESAMPLE; i++) {
      scores[i] = risk[Math.min(i / per, CALIBRATION_BINS - 1)];
      positive[i] = sample[i][1] > 0;
    }
    return new Predictor(edges, risk, Draws.auc(scores, positive));
  }
}
