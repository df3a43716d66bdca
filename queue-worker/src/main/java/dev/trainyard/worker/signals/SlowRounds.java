package dev.trainyard.worker.signals;

import java.time.Duration;

/**
 * Which of the poller's rounds are reported as slow: every round longer than the threshold is
 * counted, and one is reported at most once per interval (the first at once), with the count of
 * slow rounds since the last report, itself included. Rounds end on any thread.
 */
final class SlowRounds {
  private final long thresholdNanos;
  private final long everyNanos;
  private boolean reportedBefore;
  private long reportedAt;
  private int since;

  SlowRounds(Duration threshold, Duration every) {
    this.thresholdNanos = threshold.toNanos();
    this.everyNanos = every.toNanos();
  }

  /**
   * A round that took {@code tookNanos} ended at {@code nowNanos} (a monotonic time).
   *
   * @return how many slow rounds to report with this one, or 0 when it is not reported
   */
  synchronized int ended(long tookNanos, long nowNanos) {
    if (tookNanos <= thresholdNanos) {
      return 0;
    }
    since++;
    if (reportedBefore && nowNanos - reportedAt < everyNanos) {
      return 0;
    }
    reportedBefore = true;
    reportedAt = nowNanos;
    int reported = since;
    since = 0;
    return reported;
  }
}
