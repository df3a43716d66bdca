package dev.trainyard.bench.http;

import dev.trainyard.bench.http.LoadGenerator.Result;
import dev.trainyard.bench.stack.StandaloneProcess;
import dev.trainyard.worker.telemetry.OtlpReceiver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What telemetry costs: the HTTP benchmark's reads and submits at saturation on a standalone with
 * tracing (10 % of traces sampled, exported over OTLP to a receiver in this process) and
 * trainyard's meters on, beside the same with both off, alternating in one run ({@code rounds} of
 * each, each on a fresh stack, so a drift of the machine falls on both).
 *
 * <p>Arguments: {@code <jar> [seconds per phase] [in-flight] [queues] [rounds] [JVM options of the
 * "on" stacks, space-separated]} (the last to try variants: {@code
 * -Dmanagement.tracing.export.enabled=false} leaves only the meters on, a JFR recording shows where
 * the cost goes). Each arm's mean is printed with its range over the rounds: a ratio inside the
 * arms' spread is no cost measured.
 */
public final class TelemetryCostBenchmark {
  private TelemetryCostBenchmark() {}

  /**
   * Tracing and trainyard's meters (and the HTTP latency buckets) off: system properties, as an
   * environment variable cannot name a key with a dash in it. Spring Boot 4 reads {@code
   * management.tracing.export.enabled} (the {@code management.tracing.enabled} of before is
   * ignored, so "off" traced as much as "on"), and no span is sampled.
   */
  static final List<String> OFF =
      List.of(
          "-Dmanagement.tracing.export.enabled=false",
          "-Dmanagement.tracing.sampling.probability=0.0",
          "-Dmanagement.metrics.enable.trainyard=false",
          "-Dmanagement.metrics.distribution.percentiles-histogram.http.server.requests=false");

  public static void main(String[] args) throws Exception {
    Path jar = StandaloneProcess.jar(args);
    Duration phase = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 20);
    int inFlight = args.length > 2 ? Integer.parseInt(args[2]) : 64;
    HttpBenchmark.queues = args.length > 3 ? Integer.parseInt(args[3]) : 50;
    int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 4;
    List<String> onOptions = args.length > 5 ? List.of(args[5].split(" ")) : List.of();
    List<double[]> off = new ArrayList<>();
    List<double[]> on = new ArrayList<>();
    try (OtlpReceiver collector = new OtlpReceiver(false)) {
      Map<String, String> traced =
          Map.of(
              "MANAGEMENT_TRACING_SAMPLING_PROBABILITY",
              "0.1",
              "MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT",
              collector.endpoint());
      for (int round = 1; round <= rounds; round++) {
        off.add(measure("off #" + round, jar, OFF, Map.of(), phase, inFlight));
        on.add(measure("on #" + round, jar, onOptions, traced, phase, inFlight));
      }
      System.out.printf(
          Locale.ROOT,
          "%nexport requests the collector answered (it keeps no span): %d%n",
          collector.exports());
    }
    double readsOff = mean(off, 0);
    double readsOn = mean(on, 0);
    double submitsOff = mean(off, 1);
    double submitsOn = mean(on, 1);
    System.out.printf(
        Locale.ROOT,
        "%n| telemetry (%d rounds, %d s phases, %d in flight) | reads req/s (range) | submits req/s"
            + " (range) |%n|---|---:|---:|%n| off | %.0f (%s) | %.0f (%s) |%n"
            + "| on (10 %% sampled, exported) | %.0f (%s) | %.0f (%s) |%n"
            + "| on / off | **%.3f** | **%.3f** |%n",
        rounds,
        phase.toSeconds(),
        inFlight,
        readsOff,
        range(off, 0),
        submitsOff,
        range(off, 1),
        readsOn,
        range(on, 0),
        submitsOn,
        range(on, 1),
        readsOn / readsOff,
        submitsOn / submitsOff);
    System.out.println("target: on / off >= 0.95 (at most 5 % of throughput)");
  }

  /** One fresh stack: seed, warm up, then reads and submits at saturation; req/s of each. */
  private static double[] measure(
      String name,
      Path jar,
      List<String> systemProperties,
      Map<String, String> environment,
      Duration phase,
      int inFlight)
      throws Exception {
    try (StandaloneProcess stack = StandaloneProcess.start(jar, systemProperties, environment)) {
      LoadGenerator load = new LoadGenerator(stack.baseUrl(), stack.token());
      HttpBenchmark.seed(load);
      Duration warmUp = Duration.ofSeconds(60);
      load.closedLoop(
          "warm-up",
          inFlight,
          warmUp,
          i -> i % 2 == 0 ? HttpBenchmark.read(i) : HttpBenchmark.submit(5_000_000 + i));
      Result reads = load.closedLoop(name + ": reads", inFlight, phase, HttpBenchmark::read);
      Result submits =
          load.closedLoop(
              name + ": submits", inFlight, phase, i -> HttpBenchmark.submit(6_000_000 + i));
      Result.printTable(phase, List.of(reads, submits));
      if (reads.errors() + submits.errors() > 0) {
        throw new IllegalStateException(
            name + ": errors " + reads.statuses() + " " + submits.statuses());
      }
      return new double[] {reads.throughput(), submits.throughput()};
    }
  }

  /** The lowest and the highest of a column over the rounds. */
  private static String range(List<double[]> rows, int column) {
    return String.format(
        Locale.ROOT,
        "%.0f–%.0f",
        rows.stream().mapToDouble(r -> r[column]).min().orElse(Double.NaN),
        rows.stream().mapToDouble(r -> r[column]).max().orElse(Double.NaN));
  }

  private static double mean(List<double[]> rows, int column) {
    return rows.stream().mapToDouble(r -> r[column]).average().orElse(Double.NaN);
  }
}
