package dev.trainyard.worker.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The queue's recent runs and landings, as its estimates read them, newest last, at most {@value
 * #KEPT} of each: how long each chain run took from start to verdict ({@code durationsMillis}) and
 * whether it went red ({@code reds}); for each landing made while the queue was busy since the one
 * before ({@code busyGapsMillis}), the time since that one and how many PRs it landed ({@code
 * busyGapPrs}) — the rate the queue lands PRs at when it has work, failures and resets included.
 * {@code lastLandingAt} and {@code busyAfterLast} carry the landing the next gap starts from. For
 * the self-tuning scheduler: {@code prFailures}, how each recently concluded PR ended (true: failed
 * its tests alone, false: merged), at most {@value #KEPT_PRS}; {@code window}, the speculation
 * window adaptive concurrency has reached (0: never narrowed, the queue's full {@code
 * concurrency}); and {@code failedAtMillis}, when the last {@value #BURST} failed runs concluded
 * (epoch milliseconds), which tell a burst from one failure. {@code lastTestResultsAt}: when the
 * flaky-tests service last reported on one of its runs (null: never; its CI does not upload
 * results). It lives in the aggregate, so every worker that loads the queue, and a replay, reads
 * the same history. {@code spend}: what its CI cost per merged PR lately ({@link CiSpend}). {@code
 * predictions}: how well the submits' predicted risks told failures from merges ({@link
 * PredictionScore}).
 */
public record RunHistory(
    List<Long> durationsMillis,
    List<Boolean> reds,
    List<Long> busyGapsMillis,
    List<Integer> busyGapPrs,
    Instant lastLandingAt,
    boolean busyAfterLast,
    List<Boolean> prFailures,
    long window,
    Instant lastTestResultsAt,
    List<Long> failedAtMillis,
    CiSpend spend,
    PredictionScore predictions) {
  /** How many runs are kept: enough for a stable median, few enough to follow a change. */
  public static final int KEPT = 100;

  /**
   * How many PR outcomes are kept: enough to see a failure rate of 1 %, few enough to follow it.
   */
  public static final int KEPT_PRS = 200;

  /** How many failed runs within one CI time make a burst that narrows the window. */
  static final int BURST = 3;

  /** The CI time a burst is counted within before the queue has seen a verdict. */
  static final Duration BURST_WITHIN = Duration.ofMinutes(30);

  /** Busy landings needed before their rate is trusted. */
  static final int RATE_SAMPLES = 3;

  public static final RunHistory EMPTY =
      new RunHistory(
          List.of(),
          List.of(),
          List.of(),
          List.of(),
          null,
          false,
          List.of(),
          0,
          null,
          List.of(),
          CiSpend.NONE,
          PredictionScore.NONE);

  public RunHistory {
    durationsMillis = durationsMillis == null ? List.of() : List.copyOf(durationsMillis);
    reds = reds == null ? List.of() : List.copyOf(reds);
    busyGapsMillis = busyGapsMillis == null ? List.of() : List.copyOf(busyGapsMillis);
    busyGapPrs = busyGapPrs == null ? List.of() : List.copyOf(busyGapPrs);
    prFailures = prFailures == null ? List.of() : List.copyOf(prFailures);
    failedAtMillis = failedAtMillis == null ? List.of() : List.copyOf(failedAtMillis);
    // documents written before the key existed: nothing spent on record
    spend = spend == null ? CiSpend.NONE : spend;
    predictions = predictions == null ? PredictionScore.NONE : predictions;
  }

  /** This history with one more verdict: a run that took {@code took}, red or not. */
  RunHistory with(Duration took, boolean red) {
    Copy c = new Copy(this);
    c.durationsMillis = append(durationsMillis, Math.max(0, took.toMillis()), KEPT);
    c.reds = append(reds, red, KEPT);
    return c.history();
  }

  /**
   * This history with a landing of {@code prs} PRs at {@code at}; {@code stillBusy}: the queue
   * holds PRs after it, so the time to the next landing is work, not idleness.
   */
  RunHistory landed(Instant at, int prs, boolean stillBusy) {
    boolean counts = lastLandingAt != null && busyAfterLast;
    long gap = counts ? Math.max(0, Duration.between(lastLandingAt, at).toMillis()) : 0;
    Copy c = new Copy(this);
    if (counts) {
      c.busyGapsMillis = append(busyGapsMillis, gap, KEPT);
      c.busyGapPrs = append(busyGapPrs, prs, KEPT);
    }
    c.lastLandingAt = at;
    c.busyAfterLast = stillBusy;
    c.spend = spend.merged(prs, at);
    return c.history();
  }

  /**
   * This history with {@code prs} PRs concluded at {@code at} by one run, {@code failed} or merged,
   * under a queue whose {@code concurrency} bounds the window: each merged PR widens the window by
   * one; a failed run halves it for each of its PRs only in a burst, when it is at least the third
   * ({@value #BURST}) failed run within one CI time (the median of the recent runs, this one's
   * verdict included; {@link #BURST_WITHIN} before the first verdict). One broken PR is not a
   * reason to speculate less: its red costs the runs behind it once. An outage or a broken target
   * fails several unrelated runs at once, and then every speculative run is likely thrown away
   * (SCHEDULING.md "Adaptive concurrency").
   */
  RunHistory concluded(int prs, boolean failed, long concurrency, Instant at) {
    List<Boolean> outcomes = prFailures;
    List<Long> failures =
        failed ? append(failedAtMillis, at.toEpochMilli(), BURST) : failedAtMillis;
    long since = at.minus(medianDuration().orElse(BURST_WITHIN)).toEpochMilli();
    boolean burst = failed && failures.size() >= BURST && failures.get(0) > since;
    long next = window < 1 ? concurrency : Math.min(window, concurrency);
    for (int i = 0; i < prs; i++) {
      outcomes = append(outcomes, failed, KEPT_PRS);
      if (burst) {
        next = Math.max(1, next / 2);
      } else if (!failed) {
        next = Math.min(concurrency, next + 1);
      }
    }
    Copy c = new Copy(this);
    c.prFailures = outcomes;
    c.window = next;
    c.failedAtMillis = failures;
    return c.history();
  }

  /**
   * This history knowing how PRs predicted at {@code risks} (null: without a prediction) ended, all
   * failed or all merged.
   */
  RunHistory predicted(List<Double> risks, boolean failed) {
    PredictionScore next = predictions.observed(risks, failed);
    if (next == predictions) {
      return this; // none of them carried a prediction
    }
    Copy c = new Copy(this);
    c.predictions = next;
    return c.history();
  }

  /**
   * This history with the time since the last landing not counted as work: landing was held (a
   * freeze, a closed merge window) or the queue paused, so the next gap says nothing of its pace.
   */
  RunHistory idle() {
    Copy c = new Copy(this);
    c.busyAfterLast = false;
    return c.history();
  }

  /** This history with what its CI spent so far ({@link CiSpend}). */
  RunHistory withSpend(CiSpend next) {
    if (next.equals(spend)) {
      return this;
    }
    Copy c = new Copy(this);
    c.spend = next;
    return c.history();
  }

  /** This history knowing that the queue's CI uploads test results, the last at {@code at}. */
  RunHistory testResultsAt(Instant at) {
    Copy c = new Copy(this);
    c.lastTestResultsAt = at;
    return c.history();
  }

  /** The median time from a run's start to its verdict; empty before the first verdict. */
  public Optional<Duration> medianDuration() {
    if (durationsMillis.isEmpty()) {
      return Optional.empty();
    }
    List<Long> sorted = durationsMillis.stream().sorted().toList();
    int n = sorted.size();
    long median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    return Optional.of(Duration.ofMillis(median));
  }

  /** The share of recent runs that went red; 0 before the first verdict. */
  public double failureRate() {
    return reds.isEmpty() ? 0 : reds.stream().filter(r -> r).count() / (double) reds.size();
  }

  /**
   * The share of recently concluded PRs that failed their tests, as if {@code prior} had already
   * been seen over {@code weight} PRs (so a young queue does not swing on its first failure).
   */
  public double prFailureRate(double prior, int weight) {
    long failed = prFailures.stream().filter(f -> f).count();
    return (failed + prior * weight) / (prFailures.size() + weight);
  }

  /**
   * How long the queue takes per PR landed while it has work, over its recent busy landings; empty
   * until {@value #RATE_SAMPLES} of them.
   */
  public Optional<Duration> busyTimePerPr() {
    long prs = busyGapPrs.stream().mapToLong(Integer::longValue).sum();
    long millis = busyGapsMillis.stream().mapToLong(Long::longValue).sum();
    return busyGapsMillis.size() < RATE_SAMPLES || prs == 0
        ? Optional.empty()
        : Optional.of(Duration.ofMillis(millis / prs));
  }

  private static <T> List<T> append(List<T> list, T value, int kept) {
    List<T> next = new ArrayList<>(list.size() + 1);
    next.addAll(list.size() >= kept ? list.subList(list.size() - kept + 1, list.size()) : list);
    next.add(value);
    return next;
  }

  /** A mutable copy, so each {@code with} names only what it changes. */
  private static final class Copy {
    private List<Long> durationsMillis;
    private List<Boolean> reds;
    private List<Long> busyGapsMillis;
    private List<Integer> busyGapPrs;
    private Instant lastLandingAt;
    private boolean busyAfterLast;
    private List<Boolean> prFailures;
    private long window;
    private Instant lastTestResultsAt;
    private List<Long> failedAtMillis;
    private CiSpend spend;
    private PredictionScore predictions;

    private Copy(RunHistory from) {
      durationsMillis = from.durationsMillis;
      reds = from.reds;
      busyGapsMillis = from.busyGapsMillis;
      busyGapPrs = from.busyGapPrs;
      lastLandingAt = from.lastLandingAt;
      busyAfterLast = from.busyAfterLast;
      prFailures = from.prFailures;
      window = from.window;
      lastTestResultsAt = from.lastTestResultsAt;
      failedAtMillis = from.failedAtMillis;
      spend = from.spend;
      predictions = from.predictions;
    }

    private RunHistory history() {
      return new RunHistory(
          durationsMillis,
          reds,
          busyGapsMillis,
          busyGapPrs,
          lastLandingAt,
          busyAfterLast,
          prFailures,
          window,
          lastTestResultsAt,
          failedAtMillis,
          spend,
          predictions);
    }
  }
}
