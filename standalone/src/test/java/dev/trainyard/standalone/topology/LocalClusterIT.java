package dev.trainyard.standalone.topology;

import static dev.trainyard.standalone.support.QueueSteps.awaitState;
import static dev.trainyard.standalone.support.QueueSteps.create;
import static dev.trainyard.standalone.support.QueueSteps.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.CiSimulator;
import dev.trainyard.standalone.support.GitHost;
import dev.trainyard.standalone.support.StandaloneProcess;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Helm chart's topology on one machine ({@code trainyard-standalone.jar cluster}): the chart
 * rendered by helm, its topic Job run, every Deployment started from its jar with the manifests'
 * environment — two queue workers — against a broker and a store of their own. Queues spread over
 * both workers merge real git PRs through the gateway; a SIGTERM to one worker mid-flow loses no
 * command and merges nothing twice, the other takes its partitions; SIGTERM to the harness stops
 * every process it started.
 */
class LocalClusterIT {
  private static final int QUEUES = 8;
  private static final int PRS = 2;

  @TempDir Path folder;

  @Test
  void theChartsTopologyMergesThroughItsGatewayAndSurvivesAWorkerStopped() throws Exception {
    ProcessBuilder builder =
        StandaloneProcess.javaJar(
                Path.of("target").toAbsolutePath(), "trainyard-standalone-.*SNAPSHOT\\.jar", "256m")
            .directory(Path.of("..").toFile())
            .redirectErrorStream(true);
    builder.command().add("cluster");
    builder.command().add(folder.toString());
    Process cluster = builder.start();
    Map<String, String> lines = new LinkedHashMap<>();
    List<String> processes = new ArrayList<>();
    try {
      CompletableFuture.runAsync(() -> read(cluster, lines, processes)).get(300, TimeUnit.SECONDS);
      assertThat(lines).as("the harness's output").containsKeys("BASE", "TOKEN", "ADMIN", "ORG");
      String base = lines.get("BASE").replaceFirst("/v1$", "");
      Api api = new Api(base, lines.get("TOKEN"));
      Api admin = new Api(base, lines.get("ADMIN"));
      String other = "other-" + UUID.randomUUID().toString().substring(0, 8);
      assertThat(
              admin.post("/admin/v1/createOrganization", "{\"slug\":\"" + other + "\"}").status())
          .isEqualTo(200);
      List<String> workers =
          processes.stream().filter(p -> p.contains("name=trainyard-queue-worker-")).toList();
      assertThat(workers).as("two queue-worker replicas").hasSize(2);
      for (String worker : workers) {
        // each worker owns command partitions (awaited: the group may still be balancing)
        assignedPartitions(field(worker, "management"), n -> n > 0);
      }

      Path gitRoot = Path.of(lines.get("GIT_ROOT"));
      List<String> names = new ArrayList<>();
      List<GitHost> hosts = new ArrayList<>();
      List<CiSimulator> cis = new ArrayList<>();
      try {
        for (int q = 0; q < QUEUES; q++) {
          String name = Api.uniqueRepo();
          GitHost git = new GitHost(gitRoot, lines.get("ORG"), api, name);
          names.add(name);
          hosts.add(git);
          cis.add(new CiSimulator(git.repo(), api, name));
          create(api, name, 2);
          for (long pr = 1; pr <= PRS; pr++) {
            git.openPr(pr, "Add file " + pr, "dev" + pr, "f" + pr + ".txt", "change " + pr + "\n");
            submit(api, name, pr);
          }
        }
        // mid-flow: the first PR of the first queue has landed, the rest are queued or testing
        awaitState(api, names.get(0), 1, "merged");
        ProcessHandle stopped =
            ProcessHandle.of(Long.parseLong(field(workers.get(0), "pid"))).orElseThrow();
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
        // the other worker took every partition
        assignedPartitions(field(workers.get(1), "management"), n -> n == 12);
      } finally {
        cis.forEach(CiSimulator::close);
        hosts.forEach(GitHost::close);
      }
    } finally {
      cluster.destroy();
      assertThat(cluster.waitFor(120, TimeUnit.SECONDS)).as("the harness stops").isTrue();
      for (String process : processes) {
        ProcessHandle.of(Long.parseLong(field(process, "pid")))
            .ifPresent(
                p -> assertThat(p.isAlive()).as("stopped with the harness: " + process).isFalse());
      }
    }
  }

  private static void read(Process cluster, Map<String, String> lines, List<String> processes) {
    // not closed here: after READY a thread keeps draining it, so the harness never blocks
    BufferedReader out =
        new BufferedReader(new InputStreamReader(cluster.getInputStream(), StandardCharsets.UTF_8));
    try {
      String line;
      while ((line = out.readLine()) != null && !line.equals("READY")) {
        if (line.startsWith("PROCESS ")) {
          processes.add(line);
        } else if (line.matches("[A-Z_]+=.*")) {
          lines.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
        } else {
          System.out.println("cluster: " + line);
        }
      }
      Thread drain =
          new Thread(
              () -> {
                try {
                  out.transferTo(java.io.Writer.nullWriter());
                } catch (java.io.IOException e) {
                  // the harness ended
                }
              });
      drain.setDaemon(true);
      drain.start();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String field(String processLine, String name) {
    for (String part : processLine.split(" ")) {
      if (part.startsWith(name + "=")) {
        return part.substring(name.length() + 1);
      }
    }
    throw new IllegalArgumentException(name + " not in " + processLine);
  }

  /** Partitions of the command topic the worker's consumers hold, from its Prometheus scrape. */
  private static int assignedPartitions(
      String managementPort, java.util.function.Predicate<Integer> expected) {
    return Awaitility.await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptions()
        .until(
            () -> {
              String scrape =
                  java.net.http.HttpClient.newHttpClient()
                      .send(
                          java.net.http.HttpRequest.newBuilder(
                                  java.net.URI.create(
                                      "http://127.0.0.1:"
                                          + managementPort
                                          + "/actuator/prometheus"))
                              .build(),
                          java.net.http.HttpResponse.BodyHandlers.ofString())
                      .body();
              return (int)
                  scrape
                      .lines()
                      .filter(l -> l.startsWith("kafka_consumer_coordinator_assigned_partitions"))
                      .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                      .sum();
            },
            expected::test);
  }
}
