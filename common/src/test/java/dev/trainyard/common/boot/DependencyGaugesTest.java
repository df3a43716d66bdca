package dev.trainyard.common.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The dependency gauges read the checks' last answers: 1 while a check is up, 0 once it is down or
 * throws, each dependency on its own; a scrape never runs a check.
 */
class DependencyGaugesTest {
  @Test
  void eachDependencyIsOneWhileItsCheckIsUpAndZeroOnceItIsNot() throws Exception {
    AtomicReference<Health> broker = new AtomicReference<>(Health.up().build());
    HealthIndicator store =
        () -> {
          throw new IllegalStateException("no primary");
        };
    Map<String, HealthIndicator> checks = new LinkedHashMap<>();
    checks.put("broker", broker::get);
    checks.put("store", store);
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    DependencyGauges gauges = new DependencyGauges(meters, checks);
    try {
      Awaitility.await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> up(meters, "broker") == 1 && up(meters, "store") == 0);

      broker.set(Health.down().build());
      Awaitility.await("the next check, within its period")
          .atMost(DependencyGauges.EVERY.plusSeconds(5))
          .until(() -> up(meters, "broker") == 0);
      assertThat(up(meters, "store")).isZero();
    } finally {
      gauges.destroy();
    }
  }

  private static double up(SimpleMeterRegistry meters, String dependency) {
    return meters.get("trainyard.dependency.up").tag("dependency", dependency).gauge().value();
  }
}
