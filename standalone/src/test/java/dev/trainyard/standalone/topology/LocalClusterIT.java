package dev.trainyard.standalone.topology;

import static dev.trainyard.standalone.support.QueueSteps.awaitState;
import static dev.trainyard.standalone.support.QueueSteps.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.ClusterHarness;
import dev.trainyard.standalone.support.GitHost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Helm chart's topology on one machine ({@code trainyard-standalone.jar cluster}): the chart
 * rendered by helm, its topic Job run, every Deployment started from its jar with the manifests'
 * environment — two queue workers — against a broker and a store of their own. Queues spread over
 * both workers merge real git PRs through the gateway; a SIGTERM to one worker mid-flow loses no
 * command and merges nothing twice, the other takes its partitions until the harness has started
 * the stopped one again; SIGTERM to the harness stops every process it started.
 */
class LocalClusterIT {
  private static final int QUEUES = 8;
  private static final int PRS = 2;

  @TempDir Path folder;

  @Test
  void theChartsTopologyMergesThroughItsGatewayAndSurvivesAWorkerStopped() throws Exception {
    try (ClusterHarness cluster = ClusterHarness.start(folder)) {
      Api api = cluster.api();
      List<ClusterHarness.Member> workers = cluster.members("trainyard-queue-worker");
      assertThat(workers).as("two queue-worker replicas").hasSize(2);
      for (ClusterHarness.Member worker : workers) {
        worker.awaitAssignedPartitions(n -> n > 0);
      }

      try (ClusterQueues queues = ClusterQueues.open(cluster, api, QUEUES, PRS)) {
        List<String> names = queues.names;
        List<GitHost> hosts = queues.hosts;
        for (String name : names) {
          for (long pr = 1; pr <= PRS; pr++) {
            submit(api, name, pr);
          }
        }
        // mid-flow: the first PR of the first queue has landed, the rest are queued or testing
        awaitState(api, names.get(0), 1, "merged");
        ProcessHandle stopped = workers.get(0).process();
        stopped.destroy();
        assertThat(stopped.onExit().get(60, TimeUnit.SECONDS).isAlive())
            .as("the worker stops on SIGTERM")
            .isFalse();

        for (int q = 0; q < QUEUES; q++) {
          for (long pr = 1; pr <= PRS; pr++) {
            awaitState(api, names.get(q), pr, "merged");
          }
          assertThat(hosts.get(q).mainSubjects())
              .as("each PR landed once, in order: " + names.get(q))
              .isEqualTo(GitHost.landedInOrder(PRS));
        }
        // the stopped worker is started again (restartPolicy: Always) and takes its share back
        ClusterHarness.Member restarted = cluster.member(workers.get(0).name());
        assertThat(restarted.process().pid()).isNotEqualTo(stopped.pid());
        ClusterHarness.Member other = workers.get(1);
        Awaitility.await()
            .atMost(Duration.ofSeconds(90))
            .until(
                () -> {
                  int back = restarted.awaitAssignedPartitions(n -> true);
                  return back > 0 && back + other.awaitAssignedPartitions(n -> true) == 12;
                });
      }
    }
  }
}
