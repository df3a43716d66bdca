package dev.trainyard.bench.scheduler;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The seeded world of a {@link TeamWorkload}: when PRs arrive, what each one is (its risk, whether
 * it is broken, what the predictor says of it, its targets, a partner it breaks with, a PR it is
 * stacked on, a push while queued) and how each CI run goes. Each aspect draws from a stream of its
 * own, and what a PR is depends only on the PRs that arrived before it, never on the queue: two
 * schedulers given the same seed meet the same PRs at the same times and the same outages, whatever
 * runs they start.
 */
final class TeamWorld {
  /** Weekday working hours (UTC) run at this multiple of the mean arrival rate. */
  static final double PEAK = 3;

  /** The other hours of the week, so that the week's mean is 1: (168 − 45 × 3) / 123. */
  static final double QUIET = (168 - 45 * PEAK) / 123;

  private static final int FLAKY_TESTS = 100;
  private static final double TAIL = 1.1;
  private static final double STICKY_FACTOR = 2;
  private static final Duration STICKY_FOR = Duration.ofHours(2);

  /** A PR's partner, when it has one, is among the last this many arrivals of its target group. */
  static final int PAIR_WITHIN = 20;

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

  /**
   * How one CI run went: its length, whether its tree breaks, and whether CI went red on its own (a
   * flaky test or an outage) on a tree that does not; {@code outage}: that red was an outage's;
   * {@code flakyTests}: the flaky tests that failed in it, by number (whatever else made it red).
   */
  record Run(
      Duration duration, boolean breaks, boolean flaked, boolean outage, List<Integer> flakyTests) {
    Run(Duration duration, boolean breaks, boolean flaked, boolean outage) {
      this(duration, breaks, flaked, outage, List.of());
    }

    boolean red() {
      return breaks || flaked;
    }
  }

  private final TeamWorkload workload;
  private final double arrivalsPerHour;
  private final Random arrivals;
  private final Random traits;
  private final Random ci;
  private final Random whichTest;
  private final long seed;
  private final List<Instant[]> outages = new ArrayList<>();
  private final double[] flakeChance = new double[FLAKY_TESTS];
  private final Instant[] stickyUntil = new Instant[FLAKY_TESTS];
  private final Map<Long, Pr> prs = new HashMap<>();
  private final Map<Long, List<Long>> partneredBy = new HashMap<>();
  private final Map<Integer, ArrayDeque<Long>> recentByGroup = new HashMap<>();
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
    this.whichTest = new Random(seed * 31 + 6);
    this.seed = seed;
    Random setup = new Random(seed * 31 + 3);
    drawOutages(setup, start);
    drawFlakyTests(setup);
    Calibration calibration =
        CALIBRATIONS.computeIfAbsent(
            List.of(workload.riskAlpha(), workload.riskBeta(), workload.auc(), (double) seed),
            key -> calibrate(seed));
    this.noise = calibration.noise;
    this.measuredAuc = calibration.predictor.auc;
    this.binEdges = calibration.predictor.edges;
    this.binRisk = calibration.predictor.risk;
  }

  /** Calibrations by risk shape, asked AUC and seed: each costs a bisection over presamples. */
  private static final Map<List<Double>, Calibration> CALIBRATIONS = new ConcurrentHashMap<>();

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
   * Draws PR {@code number}, the next to arrive: its partner, when it has one, is one of the last
   * {@link #PAIR_WITHIN} arrivals of its target group, and a stacked PR sits on the one that
   * arrived just before it. Every draw is made whether or not it is used, so the stream does not
   * depend on what came before.
   */
  Pr draw(long number) {
    double risk =
        workload.riskAlpha() > 0
            ? Draws.beta(traits, workload.riskAlpha(), workload.riskBeta())
            : workload.riskMean();
    boolean broken = traits.nextDouble() < risk;
    double predicted = predict(risk, traits.nextGaussian());
    int group = traits.nextInt(TeamWorkload.TARGET_GROUPS);
    boolean paired = traits.nextDouble() < workload.pairShare();
    double which = traits.nextDouble();
    ArrayDeque<Long> recent = recentByGroup.computeIfAbsent(group, g -> new ArrayDeque<>());
    Long partner = null;
    if (paired && !recent.isEmpty()) {
      partner = new ArrayList<>(recent).get((int) (which * recent.size()));
    }
    recent.addLast(number);
    if (recent.size() > PAIR_WITHIN) {
      recent.removeFirst();
    }
    boolean stacked = traits.nextDouble() < workload.stackedShare();
    Long parent = stacked && prs.containsKey(number - 1) ? number - 1 : null;
    boolean pushed = traits.nextDouble() < workload.pushedShare();
    double pushAt = traits.nextDouble();
    Duration pushAfter = pushed ? Duration.ofMillis((long) (pushAt * 2 * 3.6e6)) : null;
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
    boolean breaks = tree.stream().anyMatch(n -> breaksWith(n, tree));
    List<Integer> flakyTests = flakes(start);
    boolean flaked = !flakyTests.isEmpty() && !breaks;
    double early = 0.3 + 0.7 * ci.nextDouble();
    double millis = breaks || flaked ? full * early : full;
    double outageDraw = ci.nextDouble();
    boolean outage =
        !breaks
            && !flaked
            && inOutage(start.plusMillis((long) millis))
            && outageDraw < workload.outageRed();
    return new Run(Duration.ofMillis((long) millis), breaks, flaked || outage, outage, flakyTests);
  }

  /**
   * The flaky tests that fail in a run started at {@code at}. Today's world has one flake chance
   * per run: its flaky run fails one of the flaky tests, each as likely, drawn from a stream of its
   * own so that the runs' other draws stay as they were.
   */
  private List<Integer> flakes(Instant at) {
    if (!workload.logNormalCi()) {
      return ci.nextDouble() < workload.flakeRate()
          ? List.of(whichTest.nextInt(FLAKY_TESTS))
          : List.of();
    }
    List<Integer> failed = new ArrayList<>(1);
    for (int t = 0; t < FLAKY_TESTS; t++) {
      boolean sticky = stickyUntil[t] != null && at.isBefore(stickyUntil[t]);
      double chance = flakeChance[t] * (sticky ? STICKY_FACTOR : 1);
      if (ci.nextDouble() < chance) {
        failed.add(t);
        stickyUntil[t] = at.plus(STICKY_FOR);
      }
    }
    return failed;
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

  /**
   * How often each flaky test failed, by number, in the {@code runs} CI runs on good trees the
   * flaky-tests service saw before the queue's run (pull requests' own CI, the target branch): the
   * world's flake chances without stickiness, drawn from a stream of their own.
   */
  int[] flakesBefore(int runs) {
    Random random = new Random(seed * 31 + 7);
    int[] seen = new int[FLAKY_TESTS];
    for (int run = 0; run < runs; run++) {
      if (!workload.logNormalCi()) {
        if (random.nextDouble() < workload.flakeRate()) {
          seen[random.nextInt(FLAKY_TESTS)]++;
        }
        continue;
      }
      for (int t = 0; t < FLAKY_TESTS; t++) {
        seen[t] += random.nextDouble() < flakeChance[t] ? 1 : 0;
      }
    }
    return seen;
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
    return binRisk[bin(binEdges, score(risk, noise, gaussian))];
  }

  /** The blur found, and the binned predictor at it (its AUC is what every row prints). */
  private record Calibration(double noise, Predictor predictor) {}

  /**
   * The blur that holds the predictor's AUC at the workload's: found by bisection, each step's
   * predictor binned on one presample and its AUC measured on another; none (the true risk, binned)
   * when even that tells broken from good less well than asked.
   */
  private Calibration calibrate(long seed) {
    if (workload.riskAlpha() <= 0) {
      return new Calibration(
          0, new Predictor(new double[0], new double[] {workload.riskMean()}, 0.5));
    }
    double[][] fit = presample(new Random(seed * 31 + 4));
    double[][] check = presample(new Random(seed * 31 + 5));
    Predictor sharpest = predictor(fit, check, 0);
    if (sharpest.auc <= workload.auc()) {
      return new Calibration(0, sharpest);
    }
    double low = 0;
    double high = 50;
    for (int step = 0; step < 25; step++) {
      double mid = (low + high) / 2;
      if (predictor(fit, check, mid).auc > workload.auc()) {
        low = mid;
      } else {
        high = mid;
      }
    }
    double blur = (low + high) / 2;
    return new Calibration(blur, predictor(fit, check, blur));
  }

  /** PRs of this world's risk: each one's risk, whether it broke, and its blur's gaussian. */
  private double[][] presample(Random random) {
    double[][] sample = new double[PRESAMPLE][];
    for (int i = 0; i < PRESAMPLE; i++) {
      double r = Draws.beta(random, workload.riskAlpha(), workload.riskBeta());
      sample[i] = new double[] {r, random.nextDouble() < r ? 1 : 0, random.nextGaussian()};
    }
    return sample;
  }

  private record Predictor(double[] edges, double[] risk, double auc) {}

  /**
   * The predictor at blur {@code blur}: quantile bins of the blurred score over {@code fit}, each
   * answering the share of its PRs that broke; its AUC measured on {@code check}.
   */
  private static Predictor predictor(double[][] fit, double[][] check, double blur) {
    double[][] scored = new double[fit.length][];
    for (int i = 0; i < fit.length; i++) {
      scored[i] = new double[] {score(fit[i][0], blur, fit[i][2]), fit[i][1]};
    }
    Arrays.sort(scored, (a, b) -> Double.compare(a[0], b[0]));
    int per = fit.length / CALIBRATION_BINS;
    double[] edges = new double[CALIBRATION_BINS - 1];
    double[] risk = new double[CALIBRATION_BINS];
    for (int b = 0; b < CALIBRATION_BINS; b++) {
      double brokenInBin = 0;
      for (int i = b * per; i < (b + 1) * per; i++) {
        brokenInBin += scored[i][1];
      }
      risk[b] = brokenInBin / per;
      if (b < CALIBRATION_BINS - 1) {
        edges[b] = scored[(b + 1) * per][0];
      }
    }
    double[] answers = new double[check.length];
    boolean[] broke = new boolean[check.length];
    for (int i = 0; i < check.length; i++) {
      answers[i] = risk[bin(edges, score(check[i][0], blur, check[i][2]))];
      broke[i] = check[i][1] > 0;
    }
    return new Predictor(edges, risk, Draws.auc(answers, broke));
  }

  /** The bin of {@code score}: the number of edges at or below it. */
  private static int bin(double[] edges, double score) {
    int at = Arrays.binarySearch(edges, score);
    return at >= 0 ? at + 1 : -at - 1;
  }
}
