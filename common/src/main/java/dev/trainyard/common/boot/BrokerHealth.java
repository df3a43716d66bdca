package dev.trainyard.common.boot;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Whether the Kafka cluster answers: a {@code describeCluster} that must return at least one broker
 * within {@link #TIMEOUT}. Part of the readiness group, so a pod that cannot reach its broker takes
 * no traffic (and a rolling update does not go on), while liveness stays up: a restart would not
 * bring the broker back.
 */
public final class BrokerHealth implements HealthIndicator, DisposableBean {
  static final Duration TIMEOUT = Duration.ofSeconds(2);

  private final Map<String, Object> clientSettings;
  private Admin admin;

  /**
   * @param clientSettings the admin client's settings (bootstrap servers, TLS, SASL), as the
   *     service's own {@code KafkaAdmin} has them
   */
  public BrokerHealth(Map<String, Object> clientSettings) {
    this.clientSettings = Map.copyOf(clientSettings);
  }

  @Override
  public Health health() {
    try {
      int brokers =
          admin()
              .describeCluster(new DescribeClusterOptions().timeoutMs((int) TIMEOUT.toMillis()))
              .nodes()
              .get(TIMEOUT.toMillis() + 500, TimeUnit.MILLISECONDS)
              .size();
      return brokers > 0
          ? Health.up().withDetail("brokers", brokers).build()
          : Health.down().withDetail("brokers", 0).build();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Health.down(e).build();
    } catch (Exception e) {
      return Health.down().withDetail("error", e.getClass().getSimpleName()).build();
    }
  }

  private synchronized Admin admin() {
    if (admin == null) {
      admin = Admin.create(clientSettings);
    }
    return admin;
  }

  @Override
  public synchronized void destroy() {
    if (admin != null) {
      admin.close(Duration.ofSeconds(1));
    }
  }
}
