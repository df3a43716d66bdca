package dev.trainyard.standalone.topology;

import dev.trainyard.standalone.contract.ApiContractIT;
import dev.trainyard.standalone.support.ClusterHarness;
import dev.trainyard.standalone.support.Stack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import org.junit.jupiter.api.AfterAll;

/**
 * {@link ApiContractIT} through the gateway of the Helm chart's topology: every service a process
 * of its own, started from its jar with the rendered manifests' environment.
 */
class ClusterApiContractIT extends ApiContractIT {
  @Override
  protected Stack createStack() {
    try {
      return ClusterHarness.start(Files.createTempDirectory("trainyard-cluster-contract"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @AfterAll
  void stopStack() {
    stack.close();
  }
}
