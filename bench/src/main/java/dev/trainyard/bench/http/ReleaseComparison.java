package dev.trainyard.bench.http;

import dev.trainyard.bench.stack.StandaloneProcess;
import java.io.BufferedReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The request path's regression guard: {@link HttpBenchmark} against an earlier release's
 * standalone jar and against this one, in the same run, in pairs whose order alternates (earlier
 * then this, this then earlier, …) so that the machine's drift falls on both alike. Each run starts
 * its stack from a bench process of its own ({@code against-run}): in one bench process the second
 * stack measured 1.5–1.8× the first's CPU per read in five single pairs, whichever jar it ran
 * (bench/README, "The order effect"). After seeding, the stack's heap is collected once, so the
 * phases do not start on whatever the seeding left (bench/README, "One process per run"). Prints
 * each run's table, then each figure's mean for both jars, their ratio and every pair's ratio.
 *
 * <p>Arguments: {@code <earlier jar> <jar> [runs of each, 2] [seconds per phase] [submit rate/s]
 * [in-flight] [queues]}, the last four as {@link HttpBenchmark} takes them.
 */
public final class ReleaseComparison {
  private ReleaseComparison() {}

  /** One row of the comparison: its name, how to read it from a run, its unit. */
  private record Figure(String name, ToDoubleFunction<HttpBenchmark.Summary> read, String unit) {}

  private static final List<Figure> FIGURES =
      List.of(
          new Figure("health at saturation", HttpBenchmark.Summary::healthPerSecond, "req/s"),
          new Figure("reads at saturation", HttpBenchmark.Summary::readsPerSecond, "req/s"),
          new Figure("reads / health", HttpBenchmark.Summary::readsOverHealth, ""),
          new Figure("stack CPU per read", HttpBenchmark.Summary::readCpuMillis, "ms"),
          new Figure(
              "stack CPU per read / per health request",
              s -> s.readCpuMillis() / s.healthCpuMillis(),
              ""),
          new Figure("of which garbage collection", HttpBenchmark.Summary::readGcMillis, "ms"),
          new Figure(
              "stack CPU per read without the JIT",
              HttpBenchmark.Summary::readCpuWithoutJitMillis,
              "ms"),
          new Figure("submit p50", HttpBenchmark.Summary::submitP50Millis, "ms"),
          new Figure("submit p99", HttpBenchmark.Summary::submitP99Millis, "ms"),
          new Figure("stack CPU per submit", HttpBenchmark.Summary::submitCpuMillis, "ms"),
          new Figure(
              "stack CPU per submit without the JIT",
              HttpBenchmark.Summary::submitCpuWithoutJitMillis,
              "ms"),
          new Figure("errors", s -> s.errors(), ""));

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      throw new IllegalArgumentException(
          "usage: against <earlier jar> <jar> [runs] [s/phase] [rate/s] [in-flight] [queues]");
    }
    Path earlier = Path.of(args[0]);
    Path current = Path.of(args[1]);
    for (Path jar : List.of(earlier, current)) {
      if (!Files.isRegularFile(jar)) {
        throw new IllegalArgumentException("no such jar: " + jar);
      }
    }
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    String[] rest = Arrays.copyOfRange(args, Math.min(3, args.length), args.length);
    List<HttpBenchmark.Summary> before = new ArrayList<>();
    List<HttpBenchmark.Summary> after = new ArrayList<>();
    for (int run = 1; run <= runs; run++) {
      // each pair swaps the order of the one before: the machine's drift falls on both jars
      if (run % 2 == 1) {
        before.add(once("earlier", earlier, run, runs, rest));
        after.add(once("this", current, run, runs, rest));
      } else {
        after.add(once("this", current, run, runs, rest));
        before.add(once("earlier", earlier, run, runs, rest));
      }
    }
    if (runs % 2 == 1) {
      System.out.println(
          "\nWARNING: an odd number of runs: the earlier jar ran first in one pair more than this"
              + " one; use an even number, so the machine's drift within a pair falls on both alike.");
    }
    System.out.printf(
        Locale.ROOT,
        "%n| %s: %s against %s, %d runs each, order alternating | earlier | this | this / earlier |"
            + " each pair's ratio | earlier's runs | this one's runs |%n",
        "figure",
        current.getFileName(),
        earlier.getFileName(),
        runs);
    System.out.println("|---|---:|---:|---:|---|---|---|");
    for (Figure f : FIGURES) {
      double b = mean(before, f.read());
      double a = mean(after, f.read());
      System.out.printf(
          Locale.ROOT,
          "| %s%s | %s | %s | %s | %s | %s | %s |%n",
          f.name(),
          f.unit().isEmpty() ? "" : " (" + f.unit() + ")",
          format(b),
          format(a),
          b == 0 ? "-" : String.format(Locale.ROOT, "%.2f", a / b),
          pairs(before, after, f.read()),
          each(before, f.read()),
          each(after, f.read()));
    }
  }

  /** The line a run's process ends its output with, followed by its summary. */
  private static final String SUMMARY = "against-run summary: ";

  /**
   * One run of {@code jar} in a bench process of its own (this jar, {@code against-run}), its
   * output passed through; what it measured.
   */
  private static HttpBenchmark.Summary once(
      String which, Path jar, int run, int runs, String[] rest) throws Exception {
    System.out.printf(Locale.ROOT, "%n## %s jar (%s), run %d of %d%n", which, jar, run, runs);
    List<String> command = new ArrayList<>();
    command.add(StandaloneProcess.jdkTool("java").toString());
    command.add("-jar");
    command.add(benchJar().toString());
    command.add("against-run");
    command.add(jar.toString());
    command.addAll(Arrays.asList(rest));
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      HttpBenchmark.Summary summary = null;
      try (BufferedReader output = child.inputReader()) {
        for (String line = output.readLine(); line != null; line = output.readLine()) {
          if (line.startsWith(SUMMARY)) {
            summary = HttpBenchmark.Summary.parse(line.substring(SUMMARY.length()));
          } else {
            System.out.println(line);
          }
        }
      }
      int exit = child.waitFor();
      if (exit != 0 || summary == null) {
        throw new IllegalStateException(
            String.format(
                Locale.ROOT,
                "the %s jar's run %d ended with exit status %d and no summary",
                which,
                run,
                exit));
      }
      return summary;
    } finally {
      // a run that failed here must not keep its stack on the cores the next one measures
      child.destroyForcibly();
    }
  }

  /**
   * The bench jar this process runs from: {@code java -jar} makes it the whole class path. Started
   * otherwise (an IDE, {@code java -cp}), a comparison cannot start its runs from it.
   */
  private static Path benchJar() {
    Path jar = Path.of(System.getProperty("java.class.path"));
    if (!jar.toString().endsWith(".jar") || !Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "against starts each run from the bench jar: run it as java -jar"
              + " bench/target/trainyard-bench.jar against …, not from "
              + jar);
    }
    return jar;
  }

  /** {@code against-run <jar> <args>}: one run in this process, its summary on the last line. */
  public static void runOnce(String[] args) throws Exception {
    System.out.println(SUMMARY + HttpBenchmark.standalone(args).line());
  }

  private static double mean(
      List<HttpBenchmark.Summary> runs, ToDoubleFunction<HttpBenchmark.Summary> f) {
    return runs.stream().mapToDouble(f).average().orElse(Double.NaN);
  }

  private static String each(
      List<HttpBenchmark.Summary> runs, ToDoubleFunction<HttpBenchmark.Summary> f) {
    return String.join(" / ", runs.stream().map(r -> format(f.applyAsDouble(r))).toList());
  }

  /**
   * Each run of this jar over the earlier jar's run of the same pair: the machine's speed drifts
   * between pairs far more than within one (health at saturation moved 3× in one hour here).
   */
  private static String pairs(
      List<HttpBenchmark.Summary> before,
      List<HttpBenchmark.Summary> after,
      ToDoubleFunction<HttpBenchmark.Summary> f) {
    List<String> ratios = new ArrayList<>();
    for (int i = 0; i < before.size(); i++) {
      double b = f.applyAsDouble(before.get(i));
      ratios.add(
          b == 0 ? "-" : String.format(Locale.ROOT, "%.2f", f.applyAsDouble(after.get(i)) / b));
    }
    return String.join(" / ", ratios);
  }

  private static String format(double value) {
    return Math.abs(value) >= 100
        ? String.format(Locale.ROOT, "%.0f", value)
        : String.format(Locale.ROOT, "%.3f", value);
  }
}
