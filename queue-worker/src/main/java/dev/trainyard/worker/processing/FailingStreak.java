package dev.trainyard.worker.processing;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * How long one listener thread's polls have failed in a row. A worker cut off from its store (or
 * whose publishes the brokers stop confirming) retries the same poll for as long as it takes, and
 * would hold its partitions all that time while other workers could process them; past {@code
 * bound} it lets them go ({@link #failed} answers true once per streak).
 */
final class FailingStreak {
  private final long boundNanos;
  private final LongSupplier nanoTime;
  private long since = -1;

  FailingStreak(Duration bound, LongSupplier nanoTime) {
    this.boundNanos = bound.toNanos();
    this.nanoTime = nanoTime;
  }

  /** A poll was stored: the streak ends. */
  void succeeded() {
    since = -1;
  }

  /**
   * A poll failed.
   *
   * @return true when the polls have now failed for longer than the bound (the streak then starts
   *     over)
   */
  boolean failed() {
    long now = nanoTime.getAsLong();
    if (since < 0) {
      since = now;
      return false;
    }
    if (now - since > boundNanos) {
      since = -1;
      return true;
    }
    return false;
  }
}
