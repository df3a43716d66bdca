package dev.trainyard.worker.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What the queue's CI cost per merged PR lately (SCHEDULING.md "A CI budget"): the minutes its runs
 * spent testing ({@code ciMinutes}) and the PRs it merged ({@code mergedPrs}), both weighted by age
 * with a half-life of {@link #HALF_LIFE}, as of {@code at}. A run's minutes count from the push of
 * its branch to the moment it left testing (passed, red, cancelled or cleared), so thrown-away
 * speculation and bisection are paid for; a direct merge starts no run and costs nothing here.
 * Three numbers, whatever the queue's age: the queue document does not grow with it.
 */
public record CiSpend(double ciMinutes, double mergedPrs, Instant at) {
  /** How fast old runs stop counting: a day's runs weigh half of today's. */
  static final Duration HALF_LIFE = Duration.ofHours(24);

  /**
   * Merged PRs (weighted) below which the cost per merged PR is not shown: too few to mean much.
   */
  static final double MIN_MERGED = 3;

  public static final CiSpend NONE = new CiSpend(0, 0, null);

  /** This spend with a run's {@code ci} minutes, ended at {@code when}. */
  CiSpend spent(Duration ci, Instant when) {
    CiSpend now = decayedTo(when);
    return new CiSpend(
        now.ciMinutes + Math.max(0, ci.toMillis()) / 60_000.0, now.mergedPrs, now.at);
  }

  /** This spend with {@code prs} PRs merged at {@code when}. */
  CiSpend merged(int prs, Instant when) {
    CiSpend now = decayedTo(when);
    return new CiSpend(now.ciMinutes, now.mergedPrs + prs, now.at);
  }

  /**
   * CI minutes per merged PR; empty while fewer than {@value #MIN_MERGED} merged PRs weigh in as of
   * the last run or merge (a new queue). The weights cancel in the ratio, so a queue idle since
   * shows what its recent runs cost.
   */
  public Optional<Double> minutesPerMerge() {
    return mergedPrs < MIN_MERGED ? Optional.empty() : Optional.of(ciMinutes / mergedPrs);
  }

  /** Both sums weighted to {@code when}; an event older than {@link #at} is added unweighted. */
  private CiSpend decayedTo(Instant when) {
    if (at == null) {
      return new CiSpend(ciMinutes, mergedPrs, when);
    }
    if (!when.isAfter(at)) {
      return this;
    }
    double factor =
        Math.pow(0.5, Duration.between(at, when).toMillis() / (double) HALF_LIFE.toMillis());
    return new CiSpend(ciMinutes * factor, mergedPrs * factor, when);
  }

  /**
   * {@code spend} with the CI time of each run that was testing in {@code before} and is no longer
   * testing in {@code after}: from the time it started testing to the time of its new state.
   */
  static CiSpend afterRuns(CiSpend spend, RunBook before, RunBook after) {
    CiSpend next = spend;
    for (TestRun was : before.live()) {
      if (was.state() != RunState.TESTING || was.direct()) {
        continue;
      }
      Optional<TestRun> now = after.any(was.id());
      if (now.isPresent() && now.get().state() != RunState.TESTING) {
        Instant ended = now.get().stateChangedAt();
        next = next.spent(Duration.between(was.stateChangedAt(), ended), ended);
      }
    }
    return next;
  }
}
