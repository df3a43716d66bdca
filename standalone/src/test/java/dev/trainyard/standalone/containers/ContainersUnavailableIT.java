package dev.trainyard.standalone.containers;

import dev.trainyard.standalone.guarantees.UnavailableIT;
import dev.trainyard.standalone.support.ContainerInfrastructure;
import dev.trainyard.standalone.support.Infrastructure;
import java.util.function.Supplier;
import org.testcontainers.junit.jupiter.EnabledIfDockerAvailable;

/** {@link UnavailableIT} on `mongo:7` and `apache/kafka` containers. */
@EnabledIfDockerAvailable
class ContainersUnavailableIT extends UnavailableIT {
  @Override
  protected Supplier<Infrastructure> infrastructure() {
    return ContainerInfrastructure::new;
  }
}
