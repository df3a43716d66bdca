package dev.trainyard.bench.webhooks;

import dev.trainyard.bench.stack.ApiClient;
import dev.trainyard.bench.stack.StandaloneProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Webhook delivery on the standalone stack to a local receiver: events are made by submitting PRs
 * at an offered rate (each submit publishes one {@code pull_request.submitted}); measured are the
 * deliveries per second and the delay from each event's timestamp to its arrival. Beside it, in the
 * same run: plain POSTs of an event-sized body from the same kind of client the dispatcher uses
 * (JDK HttpClient, at most 8 in flight, its per-endpoint bound) to the same receiver.
 *
 * <p>Arguments: {@code [standalone jar] [events] [offered events/s]}.
 */
public final class WebhookBenchmark {
  private static final String QUEUE =
      "\"repo\":{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\"hooks\"},"
          + "\"targetBranch\":\"main\"";
  private static final int IN_FLIGHT = 8;

  private WebhookBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path jar = StandaloneProcess.jar(args);
    int events = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
    double rate = args.length > 2 ? Double.parseDouble(args[2]) : 150;
    try (StandaloneProcess standalone = StandaloneProcess.start(jar);
        Receiver receiver = new Receiver()) {
      ApiClient api = new ApiClient(standalone.baseUrl());
      api.post("/v1/webhooks/createEndpoint", "{\"url\":\"" + receiver.url() + "\"}");
      api.post("/v1/createQueue", "{" + QUEUE + "}");

      offer(api, receiver, 1, 200, rate); // warm-up
      receiver.reset();
      double offered = offer(api, receiver, 1_000_001, events, rate);
      double deliveries = receiver.rate();
      Histogram delays = new Histogram(3);
      receiver.delaysMicros().forEach(delays::recordValue);

      receiver.reset();
      double plain = plainPosts(receiver, events);

      System.out.printf(
          Locale.ROOT,
          "%n| measurement | events | rate /s | delay p50 ms | delay p99 ms |%n|---|---:|---:|---:|---:|%n");
      System.out.printf(
          Locale.ROOT, "| submits offered (open loop) | %d | %.0f | | |%n", events, offered);
      System.out.printf(
          Locale.ROOT,
          "| webhook deliveries | %d | %.0f | %.1f | %.1f |%n",
          delays.getTotalCount(),
          deliveries,
          delays.getValueAtPercentile(50) / 1000.0,
          delays.getValueAtPercentile(99) / 1000.0);
      System.out.printf(
          Locale.ROOT, "| plain POSTs, %d in flight | %d | %.0f | | |%n", IN_FLIGHT, events, plain);
      System.out.printf(Locale.ROOT, "%ndeliveries / plain POST rate: %.2f%n", deliveries / plain);
    }
  }

  /** Submits {@code count} PRs at {@code rate} and waits until their webhooks arrived. */
  private static double offer(
      ApiClient api, Receiver receiver, long firstPr, int count, double rate) throws Exception {
    ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
    long periodNanos = (long) (1e9 / rate);
    long start = System.nanoTime();
    CompletableFuture<?>[] sent = new CompletableFuture<?>[count];
    for (int i = 0; i < count; i++) {
      long pr = firstPr + i;
      int index = i;
      CompletableFuture<Integer> done = new CompletableFuture<>();
      sent[index] = done;
      ticker.schedule(
          () -> {
            api.postAsync("/v1/submitPullRequest", "{" + QUEUE + ",\"pr\":{\"number\":" + pr + "}}")
                .whenComplete((status, error) -> done.complete(status == null ? 0 : status));
          },
          i * periodNanos,
          TimeUnit.NANOSECONDS);
    }
    CompletableFuture.allOf(sent).get(10, TimeUnit.MINUTES);
    double offered = count / ((System.nanoTime() - start) / 1e9);
    ticker.shutdown();
    long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
    while (receiver.received() < count && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    if (receiver.received() < count) {
      throw new IllegalStateException(
          "only " + receiver.received() + " of " + count + " webhooks arrived");
    }
    return offered;
  }

  /** POSTs of an event-sized body straight to the receiver, at most 8 in flight. */
  private static double plainPosts(Receiver receiver, int count) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(15)).build();
    String body =
        "{\"type\":\"pull_request.submitted\",\"action\":\"submitted\",\"status\":\"not_ready\","
            + "\"author\":\"\",\"http_details_url\":\"http://localhost:8080/default/merge-queue/"
            + "github.com/acme/hooks/main/1\",\"pr_number\":1,\"repository\":{\"host\":"
            + "\"github.com\",\"owner\":\"acme\",\"name\":\"hooks\"},\"target_branch\":\"main\","
            + "\"submitted_reason\":\"API_REQUESTED\"}";
    Semaphore slots = new Semaphore(IN_FLIGHT);
    CompletableFuture<?>[] sent = new CompletableFuture<?>[count];
    for (int i = 0; i < count; i++) {
      slots.acquire();
      sent[i] =
          http.sendAsync(
                  HttpRequest.newBuilder(URI.create(receiver.url()))
                      .header("content-type", "application/json")
                      .POST(HttpRequest.BodyPublishers.ofString(body))
                      .build(),
                  HttpResponse.BodyHandlers.discarding())
              .whenComplete((r, e) -> slots.release());
    }
    CompletableFuture.allOf(sent).get(5, TimeUnit.MINUTES);
    return receiver.rate();
  }
}
