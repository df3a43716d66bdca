package dev.trainyard.common.boot;

import com.mongodb.connection.ClusterDescription;
import java.util.function.Supplier;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Whether the document store can take writes, as the MongoDB driver's own monitoring sees it: a
 * writable server in the client's cluster description. It never blocks (the driver's heartbeats
 * keep the description current), it works against the embedded store, which does not know the
 * {@code hello} command Spring Boot's own check sends, and it is down until the first connection.
 */
public final class StoreHealth implements HealthIndicator {
  private final Supplier<ClusterDescription> cluster;

  /**
   * @param cluster the client's current cluster description (sync or reactive client alike)
   */
  public StoreHealth(Supplier<ClusterDescription> cluster) {
    this.cluster = cluster;
  }

  @Override
  public Health health() {
    ClusterDescription description = cluster.get();
    Health.Builder health = description.hasWritableServer() ? Health.up() : Health.down();
    health.withDetail("type", description.getType().name());
    if (description.getSrvResolutionException() != null) {
      health.withDetail("error", description.getSrvResolutionException().getMessage());
    }
    return health.build();
  }
}
