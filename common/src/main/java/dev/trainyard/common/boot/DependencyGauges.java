package dev.trainyard.common.boot;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * {@code trainyard.dependency.up{dependency}}: whether this process reaches its broker and its
 * store, 1 or 0, as their readiness checks say. The checks run every {@link #EVERY} on a thread of
 * their own, never in a scrape (a broker away takes a check seconds); the gauge reads the last
 * answer, NaN before the first. A pod that is not ready is still scraped, so an outage shows as 0
 * in every pod it touches.
 */
public final class DependencyGauges implements DisposableBean {
  static final Duration EVERY = Duration.ofSeconds(10);

  private final ScheduledExecutorService checks =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "dependency-checks");
            thread.setDaemon(true);
            return thread;
          });

  /**
   * @param byDependency each check by the name the gauge's {@code dependency} tag gives it
   */
  public DependencyGauges(MeterRegistry meters, Map<String, HealthIndicator> byDependency) {
    byDependency.forEach(
        (dependency, check) -> {
          Last last = new Last();
          Gauge.builder("trainyard.dependency.up", last, Last::value)
              .tag("dependency", dependency)
              .strongReference(true) // nothing else holds it
              .register(meters);
          checks.scheduleWithFixedDelay(
              () -> last.value = up(check), 0, EVERY.toMillis(), TimeUnit.MILLISECONDS);
        });
  }

  private static double up(HealthIndicator check) {
    try {
      return Status.UP.equals(check.health().getStatus()) ? 1 : 0;
    } catch (RuntimeException e) {
      return 0;
    }
  }

  /** The last answer of one check. */
  private static final class Last {
    private volatile double value = Double.NaN;

    double value() {
      return value;
    }
  }

  @Override
  public void destroy() {
    checks.shutdownNow();
  }
}
