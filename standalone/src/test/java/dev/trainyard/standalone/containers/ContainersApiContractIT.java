package dev.trainyard.standalone.containers;

import dev.trainyard.standalone.contract.ApiContractIT;
import dev.trainyard.standalone.support.ContainerInfrastructure;
import dev.trainyard.standalone.support.Stack;
import dev.trainyard.standalone.support.TestStack;
import org.junit.jupiter.api.AfterAll;
import org.testcontainers.junit.jupiter.EnabledIfDockerAvailable;

/** {@link ApiContractIT} on `mongo:7` and `apache/kafka` containers. */
@EnabledIfDockerAvailable
class ContainersApiContractIT extends ApiContractIT {
  @Override
  protected Stack createStack() {
    return TestStack.start(ContainerInfrastructure::new);
  }

  @AfterAll
  void stopStack() {
    stack.close();
  }
}
