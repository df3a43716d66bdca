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
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.springframework.util.FileSystemUtils;

/** The standalone distribution started as a child process on a fresh data directory. */
public final class StandaloneProcess implements Stack {
  public static final String TOKEN = "bench-token";

  /** The stack's output, in its data directory; kept when the stack stops. */
  public static final String LOG = "standalone.log";

  /** {@code getconf CLK_TCK} on Linux, the unit of {@code /proc}'s CPU times. */
  private static final long CLOCK_TICKS_PER_SECOND = 100;

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

  /**
   * The CPU time of the process's JIT compiler threads ({@code C1/C2 CompilerThread*}). A compiler
   * thread the JVM retired takes its time with it, so this is a lower bound.
   */
  @Override
  public Map<String, Duration> compileTimes() {
    return threadTimes(name -> name.contains("CompilerThre"));
  }

  /**
   * The CPU time of the process's garbage collector threads ({@code GC Thread#*} and G1's own:
   * marking, refinement, its service thread). The JVM picks G1 here (two cores, 2 GiB of heap); a
   * serial collector would collect on the {@code VM Thread}, which is not counted, and neither is
   * that thread's share of G1's pauses.
   */
  @Override
  public Map<String, Duration> gcTimes() {
    return threadTimes(name -> name.startsWith("GC Thread") || name.startsWith("G1 "));
  }

  /**
   * Collects the whole heap now ({@code jcmd <pid> GC.run}), so that the phase after it does not
   * start on the garbage the ones before it left. Where that fails (no {@code jcmd}, attach
   * disabled) the run goes on, and says so.
   */
  @Override
  public void collectGarbage() throws IOException, InterruptedException {
    Path jcmd = jdkTool("jcmd");
    if (!Files.isExecutable(jcmd)) {
      System.out.println("(the heap was not collected: no " + jcmd + ")");
      return;
    }
    Process gc =
        new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "GC.run")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!gc.waitFor(60, TimeUnit.SECONDS) || gc.exitValue() != 0) {
      gc.destroyForcibly();
      System.out.println("(the heap was not collected: jcmd GC.run failed or took over 60 s)");
    }
  }

  /** A tool of the JDK this bench runs on ({@code java}, {@code jcmd}): stacks run on the same. */
  public static Path jdkTool(String name) {
    return Path.of(System.getProperty("java.home"), "bin", name);
  }

  /**
   * The CPU time of the process's threads whose name {@code named} accepts, summed from each
   * thread's {@code stat} under {@code /proc/<pid>/task}; empty where there is no {@code /proc}.
   */
  private Map<String, Duration> threadTimes(Predicate<String> named) {
    Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
    if (!Files.isDirectory(tasks)) {
      return Map.of();
    }
    long ticks = 0;
    try (var threads = Files.list(tasks)) {
      for (Path task : threads.toList()) {
        try {
          if (named.test(Files.readString(task.resolve("comm")).strip())) {
            String stat = Files.readString(task.resolve("stat"));
            // after the command's closing parenthesis: state is field 3, utime 14, stime 15
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
          }
        } catch (IOException e) {
          // the thread ended meanwhile
        }
      }
    } catch (IOException e) {
      return Map.of();
    }
    return Map.of("standalone", Duration.ofMillis(ticks * 1000 / CLOCK_TICKS_PER_SECOND));
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
    command.add(jdkTool("java").toString());
    command.add("-Xmx2g");
    command.addAll(systemProperties);
    command.add("-jar");
    command.add(jar.toString());
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(data.resolve(LOG).toFile());
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
        throw new IllegalStateException("the standalone exited; see " + data.resolve(LOG));
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

  /**
   * Stops the stack and removes its data but its log (a stack of {@code bench against} leaves a
   * gigabyte or more otherwise; a report may still point at the log).
   */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    process.waitFor();
    try (Stream<Path> children = Files.list(data)) {
      for (Path child : children.filter(c -> !c.getFileName().toString().equals(LOG)).toList()) {
        FileSystemUtils.deleteRecursively(child);
      }
    } catch (IOException e) {
      System.err.println("could not remove the data of " + data + ": " + e);
    }
  }

  /** A port free now, for a service the bench reaches directly (the store, the metrics). */
  public static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
