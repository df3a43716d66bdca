package dev.trainyard.standalone.containers;

import dev.trainyard.standalone.guarantees.GuaranteesIT;
import dev.trainyard.standalone.support.ContainerInfrastructure;
import dev.trainyard.standalone.support.Infrastructure;
import java.util.function.Supplier;
import org.testcontainers.junit.jupiter.EnabledIfDockerAvailable;

/** {@link GuaranteesIT} on `mongo:7` and `apache/kafka` containers. */
@EnabledIfDockerAvailable
class ContainersGuaranteesIT extends GuaranteesIT {
  @Override
  protected Supplier<Infrastructure> infrastructure() {
    return ContainerInfrastructure::new;
  }
}
