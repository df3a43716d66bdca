package dev.trainyard.bench.flaky;

import dev.trainyard.bench.stack.StandaloneProcess;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * What full run histories cost, on the standalone jar through the gateway. Two repositories with
 * the same {@code cases} test cases, every one flaky and quarantined (auto-quarantine on): {@code
 * fresh}, whose test cases have run twice, and {@code full}, whose test cases carry the most runs a
 * history keeps (20 on {@code main} and 100 pull-request runs of the week that passed on a retry,
 * {@value #FILL} uploads). Then, for each, one more upload of all its test cases is timed (test
 * cases per second), and {@code get-quarantine-config} — which every CI job calls — is asked {@code
 * samples} times, alternating between the two (p50/p99). The ratios full / fresh are the cost of a
 * full history.
 *
 * <p>Arguments: {@code [standalone jar] [cases] [samples]}.
 */
public final class HistoryBenchmark {
  static final int FILL = 120;
  private static final int MAIN_RUNS = 20;

  private HistoryBenchmark() {}

  public static void main(String[] args) throws Exception {
    int cases = number(args, 1, 2_000);
    int samples = number(args, 2, 50);
    List<String> slowReads = List.of("-Dtrainyard.flaky-tests.timeout=PT2M");
    try (StandaloneProcess standalone =
        StandaloneProcess.start(StandaloneProcess.jar(args), slowReads)) {
      FlakyBenchmark bench = new FlakyBenchmark(standalone.baseUrl());
      String fresh = repo("fresh");
      String full = repo("full");
      for (String repo : List.of(fresh, full)) {
        bench.post(
            "/v1/flaky-tests/update-repo-settings",
            "{\"repo\":" + repo + ",\"auto_quarantine\":true}");
        bench.upload(repo, "s0", "main", null, "H", cases, 'R'); // flaky: passed on a retry
      }
      bench.upload(fresh, "s1", "main", null, "H", cases, 'P');
      long filling = System.nanoTime();
      for (int i = 1; i < FILL; i++) {
        boolean onMain = i < MAIN_RUNS;
        // pull requests' runs pass on a retry: the tests stay flaky (and quarantined) throughout
        bench.upload(
            full,
            "f" + i,
            onMain ? "main" : "feature",
            onMain ? null : (long) i,
            "H",
            cases,
            onMain ? 'P' : 'R');
      }
      System.out.printf(
          Locale.ROOT,
          "filled %,d test cases with %d runs each in %.0f s%n",
          cases,
          FILL,
          (System.nanoTime() - filling) / 1e9);

      double freshRate = timedUpload(bench, fresh, cases);
      double fullRate = timedUpload(bench, full, cases);
      System.out.printf(
          Locale.ROOT,
          "one more upload: fresh %,.0f, full %,.0f test cases/s%n",
          freshRate,
          fullRate);
      Histogram freshConfig = new Histogram(3);
      Histogram fullConfig = new Histogram(3);
      for (int i = 0; i < 5; i++) {
        config(bench, fresh);
        config(bench, full);
      }
      for (int i = 0; i < samples; i++) {
        freshConfig.recordValue(config(bench, fresh));
        fullConfig.recordValue(config(bench, full));
      }
      System.out.printf(
          Locale.ROOT,
          "%n| %,d test cases | fresh (2 runs) | full (%d runs) | full / fresh |%n|---|---:|---:|---:|%n",
          cases,
          FILL);
      System.out.printf(
          Locale.ROOT,
          "| one more upload, test cases/s | %,.0f | %,.0f | %.2f |%n",
          freshRate,
          fullRate,
          fullRate / freshRate);
      row("get-quarantine-config p50 ms", freshConfig, fullConfig, 50);
      row("get-quarantine-config p99 ms", freshConfig, fullConfig, 99);
    }
  }

  /** Argument {@code index} as a number, {@code otherwise} when not given. */
  private static int number(String[] args, int index, int otherwise) {
    return args.length > index ? Integer.parseInt(args[index]) : otherwise;
  }

  private static String repo(String name) {
    return "{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\"" + name + "\"}";
  }

  private static double timedUpload(FlakyBenchmark bench, String repo, int cases) throws Exception {
    long started = System.nanoTime();
    bench.upload(repo, "timed", "main", null, "H", cases, 'P');
    return cases / ((System.nanoTime() - started) / 1e9);
  }

  /** Microseconds for one {@code get-quarantine-config} of {@code repo}. */
  private static long config(FlakyBenchmark bench, String repo) throws Exception {
    long started = System.nanoTime();
    String body = bench.post("/v1/flaky-tests/get-quarantine-config", "{\"repo\":" + repo + "}");
    if (!body.contains("\"quarantinedTests\":[{")) {
      throw new IllegalStateException("nothing quarantined: " + body);
    }
    return (System.nanoTime() - started) / 1000;
  }

  private static void row(String what, Histogram fresh, Histogram full, double percentile) {
    double a = fresh.getValueAtPercentile(percentile) / 1000.0;
    double b = full.getValueAtPercentile(percentile) / 1000.0;
    System.out.printf(Locale.ROOT, "| %s | %.1f | %.1f | %.2f |%n", what, a, b, b / a);
  }
}
