package dev.trainyard.common.telemetry;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * Calls to source hosts: {@code trainyard.scm.calls} by adapter ({@code git}, {@code github}) and
 * status (an HTTP status class, or {@code ok} / {@code error}), and {@code
 * trainyard.github.rate.limit.remaining}: the lowest {@code x-ratelimit-remaining} GitHub reported
 * in the last {@link #RATE_WINDOW} (over all installations; NaN before the first report); and
 * {@code trainyard.github.rate.limited}: the calls GitHub limited, by kind.
 */
public final class ScmCalls {
  /** Records nothing. */
  public static final ScmCalls NONE = new ScmCalls(null, Clock.systemUTC());

  static final Duration RATE_WINDOW = Duration.ofMinutes(5);
  private final MeterRegistry meters;
  private final Clock clock;
  private double lowestRemaining = Double.NaN;
  private Instant lowestAt = Instant.EPOCH;

  public ScmCalls(MeterRegistry meters, Clock clock) {
    this.meters = meters;
    this.clock = clock;
    if (meters != null) {
      Gauge.builder("trainyard.github.rate.limit.remaining", this, ScmCalls::remaining)
          .description("lowest x-ratelimit-remaining GitHub reported in the last 5 minutes")
          .register(meters);
    }
  }

  /** One call of {@code adapter} that ended with {@code status}, taking {@code nanos}. */
  public void record(String adapter, String status, long nanos) {
    if (meters != null) {
      Timer.builder("trainyard.scm.calls")
          .tags("adapter", adapter, "status", status)
          .publishPercentileHistogram()
          .register(meters)
          .record(nanos, TimeUnit.NANOSECONDS);
    }
  }

  /**
   * GitHub limited a call ({@code kind}: {@code primary}, its hourly limit spent; {@code
   * secondary}, too many calls too fast): {@code trainyard.github.rate.limited}.
   */
  public void limited(String kind) {
    if (meters != null) {
      meters.counter("trainyard.github.rate.limited", "kind", kind).increment();
    }
  }

  /** The status class of an HTTP status: {@code 2xx} … {@code 5xx}. */
  public static String statusClass(int status) {
    return status / 100 + "xx";
  }

  /** GitHub reported {@code remaining} requests left in its current window. */
  public synchronized void rateLimitRemaining(long remaining) {
    Instant now = clock.instant();
    if (Double.isNaN(lowestRemaining)
        || remaining <= lowestRemaining
        || lowestAt.plus(RATE_WINDOW).isBefore(now)) {
      lowestRemaining = remaining;
      lowestAt = now;
    }
  }

  private synchronized double remaining() {
    return lowestAt.plus(RATE_WINDOW).isBefore(clock.instant()) ? Double.NaN : lowestRemaining;
  }
}
