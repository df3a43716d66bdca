package dev.trainyard.standalone.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The packaged standalone jar run as its own process, the way a user runs it. */
public final class StandaloneProcess {
  private final Process process;
  private final CompletableFuture<String> token = new CompletableFuture<>();
  private final List<String> output = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final Path data;
  private final Path log;

  /**
   * The processes started since a test's log was last shown or dropped ({@link ShowsLogOnFailure}).
   */
  private static final List<StandaloneProcess> STARTED =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  private StandaloneProcess(Process process, Path data, Path log) {
    this.process = process;
    this.data = data;
    this.log = log;
    STARTED.add(this);
    Thread reader = new Thread(this::readOutput, "standalone-output");
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts {@code java -jar} on {@code data} with the gateway on {@code port}. */
  public static StandaloneProcess start(Path data, int port) throws IOException {
    return start(data, port, java.util.Map.of());
  }

  /** The same, with {@code env} added to the process environment. */
  public static StandaloneProcess start(Path data, int port, java.util.Map<String, String> env)
      throws IOException {
    ProcessBuilder builder =
        javaJar(Path.of("target"), "trainyard-standalone-.*\\.jar", "768m")
            .redirectErrorStream(true);
    builder.environment().put("TRAINYARD_DATA_DIR", data.toString());
    builder.environment().put("SERVER_PORT", Integer.toString(port));
    builder.environment().put("TRAINYARD_KAFKA_PORT", "0");
    builder.environment().put("TRAINYARD_MONGO_PORT", "0");
    builder.environment().put("TRAINYARD_MANAGEMENT_PORT", "0");
    builder.environment().remove("TRAINYARD_BOOTSTRAP_TOKEN");
    builder.environment().remove("TRAINYARD_ADMIN_TOKEN");
    builder.environment().remove("TRAINYARD_GIT_ROOT");
    builder.environment().put("TRAINYARD_STATUS_SETTLE", "0s"); // StatusSettleIT covers it
    builder.environment().putAll(env);
    return new StandaloneProcess(
        builder.start(), data, data.resolve("standalone-" + port + ".log"));
  }

  /**
   * The API token, once the start banner says the services are up: as printed when this start
   * generated it, else as the data directory remembers it.
   */
  public String awaitToken() throws Exception {
    String shown = token.get(Duration.ofSeconds(120).toSeconds(), TimeUnit.SECONDS);
    if (!shown.startsWith("(")) {
      return shown;
    }
    java.util.Properties remembered = new java.util.Properties();
    try (var in = Files.newBufferedReader(data.resolve("standalone.properties"))) {
      remembered.load(in);
    }
    return remembered.getProperty("bootstrap.token", shown);
  }

  /**
   * Hands over the processes started since the last call, and forgets them: the last lines each
   * printed are what a failed test shows, since a CI machine keeps only the build's own output.
   */
  static List<StandaloneProcess> takeStarted() {
    List<StandaloneProcess> started = List.copyOf(STARTED);
    STARTED.removeAll(started);
    return started;
  }

  /** Where everything the process printed is kept: beside its data. */
  public Path logFile() {
    return log;
  }

  /** Every line the process printed so far. */
  public List<String> output() {
    return List.copyOf(output);
  }

  /**
   * The JIT option of every JVM a test starts: C1 only. On CI's two cores a topology of ten JVMs
   * starting at once spent most of its start compiling with C2 (a service took 60–70 s to start,
   * 30–35 s with C1 only); what the tests check does not depend on peak speed.
   */
  public static final String TEST_JVM_OPTIONS = "-XX:TieredStopAtLevel=1";

  /** {@code java -Xmx<maxHeap> -jar <the jar in folder whose name matches>}, on this JVM's java. */
  public static ProcessBuilder javaJar(Path folder, String jarName, String maxHeap)
      throws IOException {
    Path jar;
    try (Stream<Path> files = Files.list(folder)) {
      jar =
          files
              .filter(p -> p.getFileName().toString().matches(jarName))
              .findFirst()
              .orElseThrow(() -> new IllegalStateException("package " + folder + " first"));
    }
    return new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx" + maxHeap,
        TEST_JVM_OPTIONS,
        "-jar",
        jar.toString());
  }

  /** SIGTERM, as Ctrl-C or Kubernetes would; returns whether it stopped within a minute. */
  public boolean stop() throws InterruptedException {
    process.destroy();
    return process.waitFor(60, TimeUnit.SECONDS);
  }

  /** SIGKILL: no shutdown hook, no flush, no offset commit. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(60, TimeUnit.SECONDS);
  }

  /** A port for a process started later to listen on ({@code FreePorts}). */
  public static int freePort() {
    return dev.trainyard.standalone.infra.FreePorts.next();
  }

  /**
   * Why the process ended before its banner, in the exception's own message: a CI run keeps only
   * the summary of a failed test reliably, so its exit status and the lines naming the cause
   * ({@code could not start}, each {@code Caused by}) travel with it.
   */
  private String exitedWhy() {
    String status;
    try {
      status =
          process.waitFor(10, TimeUnit.SECONDS) ? "with " + process.exitValue() : "(no status)";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      status = "(interrupted)";
    }
    List<String> lines = output();
    List<String> causes =
        lines.stream()
            .map(String::trim)
            .filter(l -> l.startsWith("trainyard: could not start") || l.startsWith("Caused by"))
            .toList();
    List<String> shown =
        causes.isEmpty() ? lines.subList(Math.max(0, lines.size() - 5), lines.size()) : causes;
    return "the standalone exited " + status + ": " + String.join(" | ", shown);
  }

  /**
   * Reads the output (it must be drained) into a log file beside the data, and picks the token out
   * of the banner.
   */
  private void readOutput() {
    try (BufferedReader out =
            new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        var file =
            Files.newBufferedWriter(
                log,
                java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND)) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        file.write(line);
        file.newLine();
        file.flush();
        output.add(line);
        if (line.trim().startsWith("API token:")) {
          token.complete(line.trim().substring("API token:".length()).trim());
        }
      }
      token.completeExceptionally(new IllegalStateException(exitedWhy()));
    } catch (IOException e) {
      token.completeExceptionally(e);
    }
  }
}
