package dev.trainyard.standalone.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.contract.ApiContractIT;
import dev.trainyard.standalone.support.ClusterHarness;
import dev.trainyard.standalone.support.Stack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;

/**
 * {@link ApiContractIT} through the gateway of the Helm chart's topology: every service a process
 * of its own, started from its jar with the rendered manifests' environment. The chart is rendered
 * with twice as many event partitions as command partitions ({@code topics.eventPartitions=24}, a
 * supported value): every worker's test-results consumer holds events partitions numbered past the
 * command count, and every worker must stay live, never restarted, for the minutes the contract
 * takes (before issue 46 each one reported itself broken and Kubernetes restarted it every ~30 s).
 */
class ClusterApiContractIT extends ApiContractIT {
  private static final String WORKERS = "trainyard-queue-worker";
  private Map<String, Long> workerPids;
  private Instant started;

  @Override
  protected Stack createStack() {
    try {
      ClusterHarness cluster =
          ClusterHarness.start(
              Files.createTempDirectory("trainyard-cluster-contract"),
              Map.of("TRAINYARD_CLUSTER_SET", "topics.eventPartitions=24"));
      started = Instant.now();
      workerPids =
          Map.copyOf(
              cluster.members(WORKERS).stream()
                  .collect(
                      Collectors.toMap(ClusterHarness.Member::name, ClusterHarness.Member::pid)));
      return cluster;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @AfterAll
  void stopStack() throws Exception {
    try {
      ClusterHarness cluster = (ClusterHarness) stack;
      List<ClusterHarness.Member> workers = cluster.members(WORKERS);
      System.out.printf(
          "EVENT-PARTITIONS events=24 commands=12 workers=%d live-for=%ds%n",
          workers.size(), Duration.between(started, Instant.now()).toSeconds());
      assertThat(workers).hasSize(workerPids.size());
      HttpClient http = HttpClient.newHttpClient();
      for (ClusterHarness.Member worker : workers) {
        assertThat(worker.pid())
            .as("%s never restarted", worker.name())
            .isEqualTo(workerPids.get(worker.name()));
        HttpResponse<String> liveness =
            http.send(
                HttpRequest.newBuilder(
                        URI.create(
                            "http://127.0.0.1:"
                                + worker.fields().get("management")
                                + "/actuator/health/liveness"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(liveness.statusCode())
            .as("%s: %s", worker.name(), liveness.body())
            .isEqualTo(200);
      }
    } finally {
      stack.close();
    }
  }
}
