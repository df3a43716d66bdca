package dev.trainyard.standalone.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;
import org.awaitility.Awaitility;

/**
 * The Helm chart's topology on one machine, started the documented way ({@code
 * trainyard-standalone.jar cluster <folder>}) and read from its output: the {@code BASE}, {@code
 * TOKEN}, {@code ADMIN}, {@code ORG} and {@code GIT_ROOT} lines and one {@link Member} per {@code
 * PROCESS} line. Closing it sends the harness SIGTERM and checks that every process it started is
 * gone.
 */
public final class ClusterHarness implements Stack {
  private final Process cluster;
  private final Map<String, String> lines = new LinkedHashMap<>();
  private final List<Member> members = new CopyOnWriteArrayList<>();
  private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();

  /** One process of the topology, as its {@code PROCESS} line names it. */
  public record Member(Map<String, String> fields) {
    static Member parse(String line) {
      Map<String, String> fields = new LinkedHashMap<>();
      for (String part : line.substring(line.indexOf(' ') + 1).split(" ")) {
        int eq = part.indexOf('=');
        if (eq > 0) {
          fields.put(part.substring(0, eq), part.substring(eq + 1));
        }
      }
      return new Member(fields);
    }

    public String name() {
      return fields.get("name");
    }

    public long pid() {
      return Long.parseLong(fields.get("pid"));
    }

    /** The running process; throws once it is gone. */
    public ProcessHandle process() {
      return ProcessHandle.of(pid()).orElseThrow();
    }

    /** Waits until this member's readiness answers 200. */
    public void awaitReady(Duration atMost) {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
      Awaitility.await()
          .atMost(atMost)
          .pollInterval(Duration.ofMillis(500))
          .until(() -> ready(http));
    }

    boolean ready(HttpClient http) {
      URI readiness =
          URI.create("http://127.0.0.1:" + fields.get("management") + "/actuator/health/readiness");
      try {
        return http.send(
                    HttpRequest.newBuilder(readiness).timeout(Duration.ofSeconds(1)).build(),
                    HttpResponse.BodyHandlers.discarding())
                .statusCode()
            == 200;
      } catch (IOException e) {
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }

    /**
     * Command partitions this member's Kafka consumers hold, from its Prometheus scrape, awaited
     * until {@code expected} holds (the group may still be balancing).
     */
    public int awaitAssignedPartitions(IntPredicate expected) {
      return awaitAssignedPartitions(expected, Duration.ofSeconds(60));
    }

    /** As {@link #awaitAssignedPartitions(IntPredicate)}, waiting up to {@code atMost}. */
    public int awaitAssignedPartitions(IntPredicate expected, Duration atMost) {
      URI scrape =
          URI.create("http://127.0.0.1:" + fields.get("management") + "/actuator/prometheus");
      HttpClient http = HttpClient.newHttpClient();
      return Awaitility.await()
          .atMost(atMost)
          .ignoreExceptions()
          .until(
              () ->
                  (int)
                      http.send(
                              HttpRequest.newBuilder(scrape).build(),
                              HttpResponse.BodyHandlers.ofString())
                          .body()
                          .lines()
                          .filter(
                              l -> l.startsWith("kafka_consumer_coordinator_assigned_partitions"))
                          .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                          .sum(),
              expected::test);
    }
  }

  private ClusterHarness(Process cluster) {
    this.cluster = cluster;
  }

  /**
   * Starts the topology in {@code folder} and returns once it printed {@code READY}. Needs helm
   * ({@code .ci/helm-check} installs it, or {@code helm} on the path): without it the caller is
   * skipped, unless {@code -Dtrainyard.cluster=required} (CI) makes that a failure.
   */
  public static ClusterHarness start(Path folder) throws IOException {
    return start(folder, Map.of());
  }

  /** As {@link #start(Path)}, with {@code environment} for the harness (e.g. chart values). */
  public static ClusterHarness start(Path folder, Map<String, String> environment)
      throws IOException {
    boolean helm =
        System.getenv("TRAINYARD_HELM") != null
            || Files.isExecutable(Path.of("..", ".ci/.tools/bin/helm"))
            || Prerequisites.onPath("helm");
    Prerequisites.require(
        helm, "trainyard.cluster", "no helm to render the chart with (.ci/helm-check installs it)");
    ProcessBuilder builder =
        StandaloneProcess.javaJar(
                Path.of("target").toAbsolutePath(), "trainyard-standalone-.*SNAPSHOT\\.jar", "256m")
            .directory(Path.of("..").toFile())
            .redirectErrorStream(true);
    // the processes of the topology too (each prints a "Picked up" line into its log)
    builder.environment().put("JAVA_TOOL_OPTIONS", StandaloneProcess.TEST_JVM_OPTIONS);
    builder.environment().putAll(environment);
    builder.command().add("cluster");
    builder.command().add(folder.toString());
    ClusterHarness harness = new ClusterHarness(builder.start());
    try {
      CompletableFuture.runAsync(harness::readUntilReady).get(300, TimeUnit.SECONDS);
    } catch (InterruptedException | ExecutionException | TimeoutException e) {
      harness.close();
      throw new IllegalStateException("the local cluster did not become ready", e);
    }
    for (String key : List.of("BASE", "TOKEN", "ADMIN", "ORG", "GIT_ROOT")) {
      if (!harness.lines.containsKey(key)) {
        harness.close();
        throw new IllegalStateException(
            "the harness printed no " + key + " line: " + harness.lines);
      }
    }
    return harness;
  }

  private void readUntilReady() {
    // not closed here: after READY a thread keeps draining it, so the harness never blocks
    BufferedReader out =
        new BufferedReader(new InputStreamReader(cluster.getInputStream(), StandardCharsets.UTF_8));
    try {
      String line;
      while ((line = out.readLine()) != null && !line.equals("READY")) {
        if (line.startsWith("PROCESS ")) {
          members.add(Member.parse(line));
        } else if (line.matches("[A-Z_]+=.*")) {
          lines.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
        } else {
          System.out.println("cluster: " + line);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // the local cluster restarts a process that exits (as Kubernetes would): follow its new pid
    Thread drain =
        new Thread(
            () -> {
              try {
                String next;
                while ((next = out.readLine()) != null) {
                  if (next.startsWith("RESTARTED ")) {
                    Member again = Member.parse(next);
                    members.replaceAll(m -> m.name().equals(again.name()) ? again : m);
                  } else if (next.startsWith("DONE ") || next.startsWith("FAILED ")) {
                    answers.add(next);
                  }
                }
              } catch (IOException e) {
                // the harness ended
              }
            });
    drain.setDaemon(true);
    drain.start();
  }

  /**
   * Sends a control line to the local cluster ({@code scale <deployment> 0|up}, {@code upgrade
   * <key=value>}) and waits until it is done.
   */
  public void control(String command, Duration atMost) throws IOException, InterruptedException {
    cluster.getOutputStream().write((command + "\n").getBytes(StandardCharsets.UTF_8));
    cluster.getOutputStream().flush();
    String answer = answers.poll(atMost.toMillis(), TimeUnit.MILLISECONDS);
    if (!("DONE " + command).equals(answer)) {
      throw new IllegalStateException(command + ": " + (answer == null ? "no answer" : answer));
    }
  }

  /** The gateway's address, without {@code /v1}. */
  public String base() {
    return lines.get("BASE").replaceFirst("/v1$", "");
  }

  public String org() {
    return lines.get("ORG");
  }

  public Path gitRoot() {
    return Path.of(lines.get("GIT_ROOT"));
  }

  /** The process named {@code name} now (a restarted one under its new pid). */
  public Member member(String name) {
    return members.stream()
        .filter(m -> m.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no process " + name + ": " + members));
  }

  /** The members whose Deployment is {@code deployment} (e.g. {@code trainyard-queue-worker}). */
  public List<Member> members(String deployment) {
    return members.stream().filter(m -> m.name().startsWith(deployment + "-")).toList();
  }

  /**
   * A Service in front of the replicas of {@code deployment} (their {@code api} port): each new
   * connection goes to the next replica whose readiness answered 200 at its last probe (every 500
   * ms, as a kubelet's probe and kube-proxy route to ready endpoints only). Close it after use.
   */
  public TcpGate service(String deployment) throws IOException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    List<Integer> ready = new CopyOnWriteArrayList<>();
    Thread probe =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                List<Integer> now = new ArrayList<>();
                for (Member replica : members(deployment)) {
                  if (replica.ready(http)) {
                    now.add(Integer.valueOf(replica.fields().get("api")));
                  }
                }
                ready.retainAll(now);
                now.stream().filter(p -> !ready.contains(p)).forEach(ready::add);
                try {
                  Thread.sleep(500);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "service-" + deployment);
    probe.setDaemon(true);
    probe.start();
    AtomicInteger next = new AtomicInteger();
    return new TcpGate(
        () -> {
          List<Integer> choice = List.copyOf(ready);
          return choice.isEmpty()
              ? 1
              : choice.get(Math.floorMod(next.getAndIncrement(), choice.size()));
        }) {
      @Override
      public void close() {
        probe.interrupt();
        super.close();
      }
    };
  }

  /** The API with the bootstrap token at {@code base} (e.g. a {@link #service} in front of it). */
  public Api api(String base) {
    return new Api(base, lines.get("TOKEN"));
  }

  @Override
  public Api api() {
    return new Api(base(), lines.get("TOKEN"));
  }

  @Override
  public Api admin() {
    return new Api(base(), lines.get("ADMIN"));
  }

  /** SIGTERM to the harness; throws unless it and every process it started are gone. */
  @Override
  public void close() {
    cluster.destroy();
    try {
      if (!cluster.waitFor(120, TimeUnit.SECONDS)) {
        cluster.destroyForcibly();
        throw new IllegalStateException("the harness did not stop within 120 s of SIGTERM");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    List<String> alive =
        members.stream()
            .filter(m -> ProcessHandle.of(Long.parseLong(m.fields().get("pid"))).isPresent())
            .filter(m -> m.process().isAlive())
            .map(Member::name)
            .toList();
    if (!alive.isEmpty()) {
      throw new IllegalStateException("still running after the harness stopped: " + alive);
    }
  }
}
