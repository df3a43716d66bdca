package dev.trainyard.bench.stack;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar trainyard-standalone.jar cluster}, the chart's topology on this machine: a
 * broker and a store of their own, and every replica of every Deployment as a process, so each
 * service's CPU is counted apart. Needs helm to render the chart ({@code .ci/helm-check} installs
 * it) and runs in the checkout, as the cluster tests do.
 */
public final class ClusterProcess implements Stack {
  private static final Duration READY_WITHIN = Duration.ofMinutes(5);
  private final Process harness;
  private final Map<String, String> lines = new ConcurrentHashMap<>();
  private final Map<String, Long> pids = new ConcurrentHashMap<>();
  private final CountDownLatch ready = new CountDownLatch(1);

  private ClusterProcess(Process harness) {
    this.harness = harness;
  }

  /** Starts the topology from {@code jar} in a fresh folder; returns once it is ready. */
  public static ClusterProcess start(Path jar) throws IOException, InterruptedException {
    Path folder = Files.createTempDirectory("trainyard-bench-cluster-");
    ProcessBuilder builder =
        new ProcessBuilder(
                StandaloneProcess.jdkTool("java").toString(),
                "-Xmx256m",
                "-jar",
                jar.toAbsolutePath().toString(),
                "cluster",
                folder.toString())
            .redirectErrorStream(true);
    ClusterProcess cluster = new ClusterProcess(builder.start());
    Thread reader = new Thread(cluster::follow, "cluster-output");
    reader.setDaemon(true);
    reader.start();
    if (!cluster.ready.await(READY_WITHIN.toSeconds(), TimeUnit.SECONDS)) {
      cluster.close();
      throw new IllegalStateException(
          "the local cluster was not ready in " + READY_WITHIN + "; see " + folder);
    }
    return cluster;
  }

  /** Reads the harness's lines: its settings, its processes (again when restarted), READY. */
  private void follow() {
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(harness.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        if (line.startsWith("PROCESS ") || line.startsWith("RESTARTED ")) {
          Map<String, String> fields = fields(line);
          pids.put(fields.get("name"), Long.parseLong(fields.get("pid")));
        } else if (line.equals("READY")) {
          ready.countDown();
        } else if (line.matches("[A-Z_]+=.*")) {
          lines.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, String> fields(String line) {
    Map<String, String> fields = new HashMap<>();
    for (String part : line.split(" ")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        fields.put(part.substring(0, eq), part.substring(eq + 1));
      }
    }
    return fields;
  }

  @Override
  public String baseUrl() {
    return lines.get("BASE").replaceFirst("/v1$", "");
  }

  @Override
  public String token() {
    return lines.get("TOKEN");
  }

  /** By Deployment ({@code trainyard-gateway-0} and {@code -1} count as one), broker and store. */
  @Override
  public Map<String, Duration> cpuTimes() {
    Map<String, Duration> byService = new TreeMap<>();
    pids.forEach(
        (name, pid) ->
            byService.merge(
                name.replaceFirst("-\\d+$", ""),
                ProcessHandle.of(pid)
                    .flatMap(p -> p.info().totalCpuDuration())
                    .orElse(Duration.ZERO),
                Duration::plus));
    return byService;
  }

  /** The harness stops every process it started on SIGTERM. */
  @Override
  public void close() throws InterruptedException {
    harness.destroy();
    harness.waitFor();
  }
}
