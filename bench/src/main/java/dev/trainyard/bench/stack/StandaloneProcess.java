package dev.trainyard.bench.stack;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The standalone distribution started as a child process on a fresh data directory. */
public final class StandaloneProcess implements Stack {
  public static final String TOKEN = "bench-token";
  private final Process process;
  private final int port;
  private final Path data;

  private StandaloneProcess(Process process, int port, Path data) {
    this.process = process;
    this.port = port;
    this.data = data;
  }

  /** One process for every service: broker, store, worker, gateway, dispatcher, flaky tests. */
  @Override
  public Map<String, Duration> cpuTimes() {
    return Map.of(
        "standalone",
        process
            .toHandle()
            .info()
            .totalCpuDuration()
            .orElseThrow(
                () -> new IllegalStateException("this system does not report process CPU")));
  }

  @Override
  public String token() {
    return TOKEN;
  }

  /** The standalone jar named by the first argument, or the one the build just packaged. */
  public static Path jar(String[] args) {
    return Path.of(
        args.length > 0 ? args[0] : "standalone/target/trainyard-standalone-0.1.0-SNAPSHOT.jar");
  }

  public static StandaloneProcess start(Path jar) throws IOException, InterruptedException {
    return start(jar, List.of());
  }

  /** Starts the jar with {@code systemProperties} ({@code -Dname=value}) on its command line. */
  public static StandaloneProcess start(Path jar, List<String> systemProperties)
      throws IOException, InterruptedException {
    return start(jar, systemProperties, Map.of());
  }

  /**
   * Starts the jar with {@code systemProperties} and, on top of the bench's own settings, the
   * variables of {@code environment} (the GitHub App's, for one).
   */
  public static StandaloneProcess start(
      Path jar, List<String> systemProperties, Map<String, String> environment)
      throws IOException, InterruptedException {
    int port = freePort();
    Path data = Files.createTempDirectory("trainyard-bench-");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx2g");
    command.addAll(systemProperties);
    command.add("-jar");
    command.add(jar.toString());
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(data.resolve("standalone.log").toFile());
    builder.environment().put("TRAINYARD_DATA_DIR", data.toString());
    builder.environment().put("SERVER_PORT", Integer.toString(port));
    builder.environment().put("TRAINYARD_KAFKA_PORT", "0");
    builder.environment().put("TRAINYARD_MONGO_PORT", "0");
    builder.environment().put("TRAINYARD_BOOTSTRAP_TOKEN", TOKEN);
    builder.environment().put("TRAINYARD_MANAGEMENT_PORT", "0");
    // the benchmarks measure the stack's own capacity, far past one organization's default limit
    builder.environment().put("TRAINYARD_RATE_LIMIT_PER_ORG", "0");
    builder.environment().putAll(environment);
    StandaloneProcess standalone = new StandaloneProcess(builder.start(), port, data);
    standalone.awaitHealthy(Duration.ofSeconds(120), data);
    return standalone;
  }

  /**
   * The data directory (its {@code git} folder is the git root; the bootstrap organization {@code
   * default} keeps its repositories in {@code git/default/}).
   */
  public Path data() {
    return data;
  }

  @Override
  public String baseUrl() {
    return "http://127.0.0.1:" + port;
  }

  private void awaitHealthy(Duration timeout, Path data) throws InterruptedException {
    HttpClient client = HttpClient.newHttpClient();
    Instant deadline = Instant.now().plus(timeout);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the standalone exited; see " + data.resolve("standalone.log"));
      }
      try {
        HttpResponse<Void> r =
            client.send(
                HttpRequest.newBuilder(URI.create(baseUrl() + "/actuator/health")).build(),
                HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException("the standalone did not become healthy in " + timeout);
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    process.waitFor();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
