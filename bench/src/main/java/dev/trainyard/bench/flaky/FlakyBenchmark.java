package dev.trainyard.bench.flaky;

import dev.trainyard.bench.stack.StandaloneProcess;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 *   <li>listing: {@code tests} flaky tests (uploads of 50,000 that passed on a retry), 100 a page;
 *       the last page (page 1,000 of 100,000 tests) is reached with {@code last_page_token}, and
 *       optionally a page {@code walk} deep with {@code next_page_token}; then page 1 and the deep
 *       pages are requested in turn {@code samples} times each — p50/p99 of each and the ratios
 *       (keyset: a deep page must cost about what the first one does).
 * </ol>
 *
 * <p>Arguments: {@code [standalone jar] [cases] [tests] [samples] [walk]} ({@code walk} 0 = no
 * walk). The gateway's timeout for flaky-test reads is raised to 2 minutes: on the embedded store
 * every list request scans the collection (see bench/README.md).
 */
public final class FlakyBenchmark {
  private static final String REPO =
      "{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\"bench\"}";
  private static final Pattern NEXT = Pattern.compile("\"next_page_token\":\"([^\"]*)\"");
  private static final Pattern LAST = Pattern.compile("\"last_page_token\":\"([^\"]*)\"");
  private static final Pattern INDEX = Pattern.compile("\"page_index\":(\\d+)");
  private static final int PAGE = 100;
  private static final int BATCH = 50_000;
  private final HttpClient http = HttpClient.newHttpClient();
  private final String base;

  FlakyBenchmark(String base) {
    this.base = base;
  }

  /** A POST of {@code json} to {@code path} through the gateway; its body, or an exception. */
  String post(String path, String json) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(base + path))
                .header("x-api-token", StandaloneProcess.TOKEN)
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException(path + " answered " + r.statusCode() + ": " + r.body());
    }
    return r.body();
  }

  public static void main(String[] args) throws Exception {
    Path jar = StandaloneProcess.jar(args);
    int cases = args.length > 1 ? Integer.parseInt(args[1]) : 50_000;
    int tests = args.length > 2 ? Integer.parseInt(args[2]) : 100_000;
    int samples = args.length > 3 ? Integer.parseInt(args[3]) : 20;
    int walk = args.length > 4 ? Integer.parseInt(args[4]) : 0;
    try (StandaloneProcess standalone =
        StandaloneProcess.start(jar, List.of("-Dtrainyard.flaky-tests.timeout=PT2M"))) {
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
      List<Page> pages = new ArrayList<>();
      pages.add(new Page("1", ""));
      String last = bench.token(LAST, bench.list(""));
      pages.add(new Page(bench.pageNumber(last) + " (last_page_token)", last));
      if (walk > 1) {
        long walkStarted = System.nanoTime();
        String token = "";
        for (int page = 1; page < walk; page++) {
          token = bench.token(NEXT, bench.list(token));
        }
        System.out.printf(
            Locale.ROOT,
            "walked to page %,d with next_page_token in %.1f s%n",
            walk,
            (System.nanoTime() - walkStarted) / 1e9);
        pages.add(new Page(bench.pageNumber(token) + " (next_page_token)", token));
      }
      for (int i = 0; i < 3; i++) {
        for (Page page : pages) {
          bench.list(page.token());
        }
      }
      for (int i = 0; i < samples; i++) {
        for (Page page : pages) {
          page.latency().recordValue(bench.timedList(page.token()));
        }
      }
      System.out.printf(
          Locale.ROOT,
          "%n| page (of %,d flaky tests, 100 a page) | samples | p50 ms | p99 ms | p99 / page 1 |%n"
              + "|---|---:|---:|---:|---:|%n",
          tests);
      double firstP99 = pages.get(0).latency().getValueAtPercentile(99);
      for (Page page : pages) {
        Histogram h = page.latency();
        System.out.printf(
            Locale.ROOT,
            "| %s | %d | %.1f | %.1f | %.2f |%n",
            page.name(),
            samples,
            h.getValueAtPercentile(50) / 1000.0,
            h.getValueAtPercentile(99) / 1000.0,
            h.getValueAtPercentile(99) / firstP99);
      }
      System.out.println("\n(target: a deep page's p99 within 2 x page 1's)");
    }
  }

  /**
   * A page to time: its 1-based number as the listing reports it, and the token that asks for it.
   */
  private record Page(String name, String token, Histogram latency) {
    Page(String name, String token) {
      this(name, token, new Histogram(3));
    }
  }

  private String token(Pattern which, String body) {
    Matcher m = which.matcher(body);
    if (!m.find() || m.group(1).isEmpty()) {
      throw new IllegalStateException("no " + which.pattern() + " in " + body.substring(0, 300));
    }
    return m.group(1);
  }

  /** The 1-based number of the page {@code token} asks for ({@code page_index} is 0-based). */
  private String pageNumber(String token) throws Exception {
    Matcher m = INDEX.matcher(list(token));
    if (!m.find()) {
      throw new IllegalStateException("no page_index");
    }
    return String.format(Locale.ROOT, "%,d", Integer.parseInt(m.group(1)) + 1);
  }

  /** One Surefire report of {@code count} cases of outcome P (passed) or R (passed on retry). */
  private void upload(String sha, String prefix, int count, char outcome) throws Exception {
    upload(REPO, sha, "main", null, prefix, count, outcome);
  }

  /** The same, to {@code repo} from {@code branch} (a pull request's when {@code pr} is given). */
  void upload(
      String repo, String sha, String branch, Long pr, String prefix, int count, char outcome)
      throws Exception {
    String boundary = "benchboundary";
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    StringBuilder head = new StringBuilder();
    List<String[]> fields =
        new ArrayList<>(
            List.of(
                new String[] {"repo", repo},
                new String[] {"commitSha", sha},
                new String[] {"branch", branch}));
    if (pr != null) {
      fields.add(new String[] {"prNumber", pr.toString()});
    }
    for (String[] field : fields) {
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
    return post(
        "/v1/flaky-tests/list-unhealthy-tests",
        "{\"repo\":"
            + REPO
            + ",\"org_url_slug\":\"default\",\"status\":\"FLAKY\","
            + "\"page_query\":{\"page_size\":"
            + PAGE
            + ",\"page_token\":\""
            + token
            + "\"}}");
  }

  /** Microseconds for one list request. */
  private long timedList(String token) throws Exception {
    long started = System.nanoTime();
    list(token);
    return (System.nanoTime() - started) / 1000;
  }
}
