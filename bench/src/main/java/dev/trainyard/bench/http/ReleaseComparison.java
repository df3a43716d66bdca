package dev.trainyard.bench.http;

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
 * then this, this then earlier, …) so that the machine's drift and the order within a pair fall on
 * both alike. The order can matter: in five single pairs the second stack started in one bench
 * process measured 1.5–1.8× the first's CPU per read (and per health request) whichever jar it was,
 * though not in every pair since (bench/README, "The order effect"). Prints each run's table, then
 * each figure's mean for both jars, their ratio and every pair's ratio.
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
      // the second stack of a pair has measured worse than the first whichever jar it ran (see the
      // class comment): each pair swaps the order of the one before, so an even count balances it
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
          "\nWARNING: an odd number of runs: the last pair ran the earlier jar first, and the"
              + " second stack of a pair has measured up to 1.8x the CPU per read of the first here;"
              + " use an even number of runs to compare.");
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

  private static HttpBenchmark.Summary once(
      String which, Path jar, int run, int runs, String[] rest) throws Exception {
    System.out.printf(Locale.ROOT, "%n## %s jar (%s), run %d of %d%n", which, jar, run, runs);
    String[] args = new String[rest.length + 1];
    args[0] = jar.toString();
    System.arraycopy(rest, 0, args, 1, rest.length);
    return HttpBenchmark.standalone(args);
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
