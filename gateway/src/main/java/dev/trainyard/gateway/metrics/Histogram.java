package dev.trainyard.gateway.metrics;

import java.time.Duration;
import java.util.Arrays;

/**
 * Durations counted into the fixed buckets of API.md §4. Sums are kept in milliseconds (what the
 * read model's timestamps resolve), so the rendered {@code _sum} is exact.
 */
public final class Histogram {
  /** Upper bounds in seconds; {@code +Inf} follows them. */
  static final long[] BOUNDS_SECONDS = {60, 300, 600, 900, 1800, 3600, 5400, 7200};

  private final long[] inBucket = new long[BOUNDS_SECONDS.length];
  private long count;
  private long sumMillis;

  /** Counts one duration; a negative one (clock skew between writers) counts as zero. */
  public Histogram observe(Duration duration) {
    long millis = Math.max(0, duration.toMillis());
    for (int i = 0; i < BOUNDS_SECONDS.length; i++) {
      if (millis <= BOUNDS_SECONDS[i] * 1000) {
        inBucket[i]++;
        break;
      }
    }
    count++;
    sumMillis += millis;
    return this;
  }

  /** Observations at most {@code BOUNDS_SECONDS[bucket]} seconds long. */
  long cumulative(int bucket) {
    long total = 0;
    for (int i = 0; i <= bucket; i++) {
      total += inBucket[i];
    }
    return total;
  }

  public long count() {
    return count;
  }

  public long sumMillis() {
    return sumMillis;
  }

  @Override
  public String toString() {
    return "Histogram" + Arrays.toString(inBucket) + " count=" + count + " sumMillis=" + sumMillis;
  }
}
