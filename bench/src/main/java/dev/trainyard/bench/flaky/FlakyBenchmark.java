package dev.trainyard.bench.flaky;

import dev.trainyard.bench.stack.StandaloneProcess;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * On the standalone jar (gateway → flaky-tests service → embedded store, over loopback):
 *
 * <ol>
 *   <li>ingestion: one upload of {@code cases} test cases (a Surefire report, all passing, so
 *       nothing becomes flaky), timed from the first byte sent to the 200 — test cases per second;
 *   <li>listing: {@code tests} flaky tests (uploads of 50,000 that passed on a retry), walked with
 *       {@code next_page_token} at 100 a page down to page {@code depth}; then page 1 and page
 *       {@code depth} are requested alternately {@code samples} times each — p50/p99 of both and
 *       their ratio (keyset: the deep page must cost about what the first one does).
 * </ol>
 *
 * <p>Arguments: {@code [standalone jar] [cases] [tests] [depth] [samples]}.
 */
public final class FlakyBenchmark {
  private static final String REPO =
      "{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\"bench\"}";
  private static final Pattern NEXT = Pattern.compile("\"next_page_token\":\"([^\"]*)\"");
  private static final int PAGE = 100;
  private static final int BATCH = 50_000;
  private final HttpClient http = HttpClient.newHttpClient();
  private final String base;

  private FlakyBenchmark(String base) {
    this.base = base;
  }

  public static void main(String[] args) throws Exception {
    Path jar = StandaloneProcess.jar(args);
    int cases = args.length > 1 ? Integer.parseInt(args[1]) : 50_000;
    int tests = args.length > 2 ? Integer.parseInt(args[2]) : 100_000;
    int depth = args.length > 3 ? Integer.parseInt(args[3]) : 1_000;
    int samples = args.length > 4 ? Integer.parseInt(args[4]) : 100;
    try (StandaloneProcess standalone = StandaloneProcess.start(jar)) {
      FlakyBenchmark bench = new FlakyBenchmark(standalone.baseUrl());
      bench.upload("warmup", "W", 1_000, 'P'); // JIT and connections
      long started = System.nanoTime();
      bench.upload("ingest", "I", cases, 'P');
      double seconds = (System.nanoTime() - started) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "ingestion: %,d test cases in %.2f s = %,.0f test cases/s%n",
          cases,
          seconds,
          cases / seconds);

      for (int seeded = 0, n = 0; seeded < tests; seeded += BATCH, n++) {
        bench.upload("seed" + n, "S" + n, Math.min(BATCH, tests - seeded), 'R');
      }
      long walkStarted = System.nanoTime();
      String token = "";
      for (int page = 1; page < depth; page++) {
        Matcher next = NEXT.matcher(bench.list(token));
        if (!next.find() || next.group(1).isEmpty()) {
          throw new IllegalStateException("the listing ended before page " + depth);
        }
        token = next.group(1);
      }
      System.out.printf(
          Locale.ROOT,
          "walked to page %,d with next_page_token in %.1f s%n",
          depth,
          (System.nanoTime() - walkStarted) / 1e9);
      Histogram first = new Histogram(3);
      Histogram deep = new Histogram(3);
      for (int i = 0; i < 10; i++) {
        bench.list("");
        bench.list(token);
      }
      for (int i = 0; i < samples; i++) {
        first.recordValue(bench.timedList(""));
        deep.recordValue(bench.timedList(token));
      }
      double p99First = first.getValueAtPercentile(99) / 1000.0;
      double p99Deep = deep.getValueAtPercentile(99) / 1000.0;
      System.out.printf(
          Locale.ROOT,
          "%n| page (of %,d flaky tests, 100 a page) | samples | p50 ms | p99 ms |%n|---|---:|---:|---:|%n"
              + "| 1 | %d | %.1f | %.1f |%n| %,d | %d | %.1f | %.1f |%n%n"
              + "p99 page %,d / page 1 = %.2f (target ≤ 2)%n",
          tests,
          samples,
          first.getValueAtPercentile(50) / 1000.0,
          p99First,
          depth,
          samples,
          deep.getValueAtPercentile(50) / 1000.0,
          p99Deep,
          depth,
          p99Deep / p99First);
    }
  }

  /** One Surefire report of {@code count} cases of outcome P (passed) or R (passed on retry). */
  private void upload(String sha, String prefix, int count, char outcome) throws Exception {
    String boundary = "benchboundary";
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    StringBuilder head = new StringBuilder();
    for (String[] field : new String[][] {{"repo", REPO}, {"commitSha", sha}, {"branch", "main"}}) {
      head.append("--")
          .append(boundary)
          .append("\r\nContent-Disposition: form-data; name=\"")
          .append(field[0])
          .append("\"\r\n\r\n")
          .append(field[1])
          .append("\r\n");
    }
    head.append("--")
        .append(boundary)
        .append(
            "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"TEST-bench.xml\"\r\n\r\n")
        .append("<testsuite name=\"com.acme.Bench")
        .append(prefix)
        .append("\">\n");
    body.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
    for (int i = 0; i < count; i++) {
      String testcase =
          "<testcase name=\"test"
              + i
              + "\" classname=\"com.acme.Bench"
              + prefix
              + (i % 500)
              + "\" time=\"0.004\""
              + (outcome == 'R' ? "><flakyFailure message=\"timeout\"/></testcase>\n" : "/>\n");
      body.writeBytes(testcase.getBytes(StandardCharsets.UTF_8));
    }
    body.writeBytes(
        ("</testsuite>\n\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(base + "/v1/flaky-tests/upload"))
                .header("x-api-token", StandaloneProcess.TOKEN)
                .header("content-type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException("upload answered " + r.statusCode() + ": " + r.body());
    }
  }

  private String list(String token) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(base + "/v1/flaky-tests/list-unhealthy-tests"))
                .header("x-api-token", StandaloneProcess.TOKEN)
                .header("content-type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"repo\":"
                            + REPO
                            + ",\"org_url_slug\":\"default\",\"status\":\"FLAKY\","
                            + "\"page_query\":{\"page_size\":"
                            + PAGE
                            + ",\"page_token\":\""
                            + token
                            + "\"}}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException("list answered " + r.statusCode() + ": " + r.body());
    }
    return r.body();
  }

  /** Microseconds for one list request. */
  private long timedList(String token) throws Exception {
    long started = System.nanoTime();
    list(token);
    return (System.nanoTime() - started) / 1000;
  }
}
