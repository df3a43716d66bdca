package dev.trainyard.standalone.services;

import dev.trainyard.standalone.support.StandaloneProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * One trainyard service started from its executable jar as a process of its own, configured by its
 * environment alone, as a Deployment starts it.
 */
final class ServiceProcess implements AutoCloseable {
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final String name;
  private final Process process;
  private final int managementPort;
  private final Path log;

  private ServiceProcess(String name, Process process, int managementPort, Path log) {
    this.name = name;
    this.process = process;
    this.managementPort = managementPort;
    this.log = log;
  }

  /** Starts {@code module}'s {@code -exec.jar} with {@code env}; its output goes to a log file. */
  static ServiceProcess start(String module, Map<String, String> env, int managementPort, Path logs)
      throws IOException {
    Path log = logs.resolve(module + ".log");
    ProcessBuilder builder =
        StandaloneProcess.javaJar(Path.of("..", module, "target"), ".*-exec\\.jar", "384m")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder
        .environment()
        .keySet()
        .removeIf(k -> k.startsWith("TRAINYARD_") || k.startsWith("SPRING_"));
    builder.environment().putAll(env);
    builder.environment().put("TRAINYARD_MANAGEMENT_PORT", Integer.toString(managementPort));
    return new ServiceProcess(module, builder.start(), managementPort, log);
  }

  String name() {
    return name;
  }

  /** Waits until the readiness probe on the management port answers 200. */
  ServiceProcess awaitReady() {
    Awaitility.await(name + " ready (log: " + log + ")")
        .atMost(Duration.ofSeconds(150))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> process.isAlive() && status("/actuator/health/readiness") == 200);
    return this;
  }

  /** Waits until {@code path} on the management port answers {@code status}. */
  ServiceProcess awaitStatus(String path, int status) {
    Awaitility.await(name + " " + path + " " + status + " (log: " + log + ")")
        .atMost(Duration.ofSeconds(150))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> process.isAlive() && status(path) == status);
    return this;
  }

  /** Its exit code, waiting up to {@code seconds}; -1 when it still runs. */
  int exitCode(int seconds) throws InterruptedException {
    return process.waitFor(seconds, TimeUnit.SECONDS) ? process.exitValue() : -1;
  }

  /** Everything it printed, line by line. */
  java.util.List<String> output() throws IOException {
    return java.nio.file.Files.readAllLines(log);
  }

  int status(String path) {
    try {
      return CLIENT
          .send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** SIGTERM, as Kubernetes stops a pod: whether it exited within 30 s. */
  boolean stop() throws InterruptedException {
    process.destroy();
    return process.waitFor(30, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive() && !stop()) {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }
}
