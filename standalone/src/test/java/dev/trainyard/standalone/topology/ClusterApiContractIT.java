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
import java.net.http.HttpResponse.BodyHandlers;
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
  private static final Duration LIVE_FOR =
      Duration.ofSeconds(75); // > twice the ~30 s restart cycle of issue 46
  private Map<String, Long> workerPids;
  private Instant started;

  @Override
  protected Stack createStack() {
    try {
      ClusterHarness cluster =
          ClusterHarness.start(
              Files.createTempDirectory("trainyard-cluster-contract"),
              Map.of("TRAINYARD_CLUSTER_SET", "topics.eventPartitions=24"));
      List<ClusterHarness.Member> workers = cluster.members(WORKERS);
      workerPids =
          Map.copyOf(
              workers.stream()
                  .collect(
                      Collectors.toMap(ClusterHarness.Member::name, ClusterHarness.Member::pid)));
      // the watch counts from the first worker's start, as Kubernetes' probes do, not from the
      // moment the whole cluster answered
      started =
          workers.stream()
              .map(w -> w.process().info().startInstant().orElseGet(Instant::now))
              .min(Instant::compareTo)
              .orElseGet(Instant::now);
      return cluster;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * After the contract, until {@link #LIVE_FOR} after the first worker started: every worker's
   * liveness is asked every 5 s and must answer UP each time, from the process the stack started.
   */
  @AfterAll
  void stopStack() throws Exception {
    try {
      ClusterHarness cluster = (ClusterHarness) stack;
      HttpClient http = HttpClient.newHttpClient();
      int probes = 0;
      do {
        List<ClusterHarness.Member> workers = cluster.members(WORKERS);
        assertThat(workers).hasSize(workerPids.size());
        for (ClusterHarness.Member worker : workers) {
          assertThat(worker.pid())
              .as("%s never restarted", worker.name())
              .isEqualTo(workerPids.get(worker.name()));
          HttpResponse<String> liveness = http.send(liveness(worker), BodyHandlers.ofString());
          assertThat(liveness.statusCode())
              .as("%s: %s", worker.name(), liveness.body())
              .isEqualTo(200);
          probes++;
        }
        Thread.sleep(5_000);
      } while (Instant.now().isBefore(started.plus(LIVE_FOR)));
      System.out.printf(
          "EVENT-PARTITIONS events=24 commands=12 workers=%d live-for=%ds liveness-probes=%d all UP%n",
          workerPids.size(), Duration.between(started, Instant.now()).toSeconds(), probes);
    } finally {
      stack.close();
    }
  }

  private static HttpRequest liveness(ClusterHarness.Member worker) {
    return HttpRequest.newBuilder(
            URI.create(
                "http://127.0.0.1:"
                    + worker.fields().get("management")
                    + "/actuator/health/liveness"))
        .build();
  }
}
