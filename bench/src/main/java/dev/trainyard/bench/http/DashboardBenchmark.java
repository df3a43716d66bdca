package dev.trainyard.bench.http;

import dev.trainyard.bench.http.LoadGenerator.Call;
import dev.trainyard.bench.http.LoadGenerator.Result;
import dev.trainyard.bench.stack.StandaloneProcess;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.Histogram;
import reactor.core.Disposable;
import reactor.netty.http.client.HttpClient;

/**
 * The dashboard on the standalone (issue 26): how fast the queue page of a queue holding {@code
 * depth} PRs and a PR's page answer, beside {@code /actuator/health} and the API's own {@code
 * getQueue} of the same queue at the same rate; and how long after a {@code submitPullRequest} an
 * open page's event stream says "changed", at {@code changes/s}, beside the submit's own latency.
 * Arguments: {@code [jar] [depth] [page reads/s] [changes/s] [seconds per phase]}.
 */
public final class DashboardBenchmark {
  private static final String DEEP = "dash-deep";
  private static final String LIVE = "dash-live";
  private static final String ORG = "default";
  private static final int SEED_IN_FLIGHT = 16;

  private DashboardBenchmark() {}

  public static void main(String[] args) throws Exception {
    int depth = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
    double readRate = args.length > 2 ? Double.parseDouble(args[2]) : 10;
    double changeRate = args.length > 3 ? Double.parseDouble(args[3]) : 50;
    Duration phase = Duration.ofSeconds(args.length > 4 ? Long.parseLong(args[4]) : 30);
    try (StandaloneProcess standalone = StandaloneProcess.start(StandaloneProcess.jar(args))) {
      LoadGenerator api = new LoadGenerator(standalone.baseUrl(), standalone.token());
      seed(api, depth);
      String cookie = signIn(standalone.baseUrl(), standalone.token());
      LoadGenerator browser = api.withCookie(cookie);
      String queuePage = "/ui/queues/github.com/bench/" + DEEP + "/main";
      String pullPage = queuePage + "/pulls/" + (depth / 2);
      String getQueue = Bodies.queue(DEEP);

      browser.openLoop("warm-up", readRate, phase, i -> get(i % 2 == 0 ? queuePage : pullPage));
      api.openLoop("warm-up", readRate, phase, i -> new Call("POST", "/v1/getQueue", getQueue));
      String at = " @ " + (int) readRate + "/s";
      List<Result> reads =
          List.of(
              api.openLoop(
                  "GET /actuator/health" + at, readRate, phase, i -> get("/actuator/health")),
              api.openLoop(
                  "POST /v1/getQueue (" + depth + " PRs)" + at,
                  readRate,
                  phase,
                  i -> new Call("POST", "/v1/getQueue", getQueue)),
              browser.openLoop(
                  "queue page (" + depth + " PRs)" + at, readRate, phase, i -> get(queuePage)),
              browser.openLoop("PR page" + at, readRate, phase, i -> get(pullPage)),
              browser.openLoop("overview" + at, readRate, phase, i -> get("/ui/")));
      Result.printTable(phase, reads);

      Live live = live(standalone.baseUrl(), cookie, api, changeRate, phase);
      System.out.printf(
          Locale.ROOT,
          "%n| at %d changes/s (%ds) | count | p50 ms | p99 ms | max ms |%n|---|---:|---:|---:|---:|%n",
          (int) changeRate,
          phase.toSeconds());
      System.out.printf(
          Locale.ROOT,
          "| submitPullRequest answered (the API's own latency) | %d | %.1f | %.1f | %.1f |%n",
          live.submits().requests(),
          live.submits().p50Millis(),
          live.submits().p99Millis(),
          live.submits().latencyMicros().getMaxValue() / 1000.0);
      System.out.printf(
          Locale.ROOT,
          "| submit sent → \"changed\" on the open page's stream | %d | %.1f | %.1f | %.1f |%n",
          live.signals().getTotalCount(),
          live.signals().getValueAtPercentile(50) / 1000.0,
          live.signals().getValueAtPercentile(99) / 1000.0,
          live.signals().getMaxValue() / 1000.0);
      System.out.printf(
          Locale.ROOT,
          "%nqueue page p99 %.1f ms, PR page p99 %.1f ms (target <= 300); "
              + "change on the stream p99 %.1f ms (target <= 1000); submits without a signal: %d%n",
          reads.get(2).p99Millis(),
          reads.get(3).p99Millis(),
          live.signals().getValueAtPercentile(99) / 1000.0,
          live.submits().requests() - live.signals().getTotalCount());
    }
  }

  private static Call get(String path) {
    return new Call("GET", path, null);
  }

  /** Two queues; the deep one gets {@code depth} PRs (they wait, not ready: no source host). */
  private static void seed(LoadGenerator api, int depth) {
    Map<Integer, Long> retried = new TreeMap<>();
    Result created =
        api.untilAnswered(
            "create queues",
            2,
            2,
            i -> new Call("POST", "/v1/createQueue", Bodies.queue(i == 0 ? DEEP : LIVE), "dq-" + i),
            retried);
    Result seeded =
        api.untilAnswered(
            "seed",
            SEED_IN_FLIGHT,
            depth,
            i -> new Call("POST", "/v1/submitPullRequest", Bodies.pr(DEEP, i + 1), "dp-" + i),
            retried);
    if (created.errors() + seeded.errors() > 0) {
      throw new IllegalStateException(
          "seeding failed: " + created.statuses() + " " + seeded.statuses());
    }
    System.out.printf(
        Locale.ROOT,
        "seeded a queue with %,d PRs in %.1f s; answers waited out: %s%n",
        depth,
        seeded.seconds(),
        retried);
  }

  /** Signs in as a browser does and answers the session cookie ({@code name=value}). */
  private static String signIn(String base, String token) throws Exception {
    HttpResponse<Void> answer =
        java.net.http.HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(base + "/ui/sign-in"))
                    .header("content-type", "application/x-www-form-urlencoded")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "next=%2Fui%2F&token="
                                + URLEncoder.encode(token, StandardCharsets.UTF_8)))
                    .build(),
                HttpResponse.BodyHandlers.discarding());
    String cookie =
        answer
            .headers()
            .firstValue("set-cookie")
            .orElseThrow(
                () -> new IllegalStateException("sign-in answered " + answer.statusCode()));
    return cookie.substring(0, cookie.indexOf(';'));
  }

  /** What the open page's stream saw while submits arrived at a fixed rate. */
  private record Live(Result submits, Histogram signals) {}

  /**
   * Opens the live queue's event stream, then submits new PRs into that queue at {@code rate}. The
   * stream says "changed" once per event of the queue; its i-th {@code pull_request.submitted}
   * signal is matched with the i-th submit sent (a queue's events are in order on one partition;
   * two submits in flight at once may swap, an error of at most one interval).
   */
  private static Live live(
      String base, String cookie, LoadGenerator api, double rate, Duration phase)
      throws InterruptedException {
    int count = (int) (rate * phase.toSeconds());
    AtomicLongArray sent = new AtomicLongArray(count);
    List<Long> arrived = java.util.Collections.synchronizedList(new ArrayList<>());
    CountDownLatch open = new CountDownLatch(1);
    SseLines lines = new SseLines(open, arrived);
    Disposable stream =
        HttpClient.create()
            .baseUrl(base)
            .headers(h -> h.add("cookie", cookie).add("accept", "text/event-stream"))
            .get()
            .uri(
                "/ui/events?scope="
                    + URLEncoder.encode(
                        "queue:" + ORG + "/github.com/bench/" + LIVE + ":main",
                        StandardCharsets.UTF_8))
            .responseContent()
            .asString(StandardCharsets.UTF_8)
            .subscribe(lines::accept);
    try {
      if (!open.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the event stream did not open");
      }
      Result submits =
          api.openLoop(
              "submits",
              rate,
              phase,
              i -> {
                sent.set((int) i, System.nanoTime());
                return new Call("POST", "/v1/submitPullRequest", Bodies.pr(LIVE, i + 1));
              });
      Thread.sleep(5_000); // the last signals' time to arrive, not a wait for a condition
      Histogram signals = new Histogram(60_000_000L, 3);
      synchronized (arrived) {
        for (int i = 0; i < Math.min(count, arrived.size()); i++) {
          signals.recordValue(Math.max(1, (arrived.get(i) - sent.get(i)) / 1000));
        }
      }
      return new Live(submits, signals);
    } finally {
      stream.dispose();
    }
  }

  /** Reads a server-sent-events stream line by line, across chunks. */
  private static final class SseLines {
    private final CountDownLatch open;
    private final List<Long> submitted;
    private final StringBuilder partial = new StringBuilder();
    private String event = "";

    SseLines(CountDownLatch open, List<Long> submitted) {
      this.open = open;
      this.submitted = submitted;
    }

    void accept(String chunk) {
      long now = System.nanoTime();
      partial.append(chunk);
      int end;
      while ((end = partial.indexOf("\n")) >= 0) {
        String line = partial.substring(0, end).strip();
        partial.delete(0, end + 1);
        if (line.startsWith("event:")) {
          event = line.substring("event:".length()).strip();
        } else if (line.startsWith("data:")) {
          String data = line.substring("data:".length()).strip();
          if (event.equals("open")) {
            open.countDown();
          } else if (event.equals("changed") && data.equals("pull_request.submitted")) {
            submitted.add(now);
          }
        }
      }
    }
  }
}
