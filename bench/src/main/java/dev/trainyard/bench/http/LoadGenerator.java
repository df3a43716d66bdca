package dev.trainyard.bench.http;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import org.HdrHistogram.Histogram;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.util.retry.Retry;

/**
 * Sends requests with reactor-netty and records latencies in an HDR histogram. Open loop: requests
 * start on a fixed schedule whatever the server does, and latency counts from the scheduled start
 * (no coordinated omission). Closed loop: a fixed number of requests in flight, for throughput.
 */
final class LoadGenerator {
  private final HttpClient client;

  /**
   * One request: method, path, body (null for GET), an {@code Idempotency-Key} (null: none) and the
   * API token it is sent with (null: the generator's).
   */
  record Call(String method, String path, String body, String idempotencyKey, String token) {
    Call(String method, String path, String body) {
      this(method, path, body, null, null);
    }

    Call(String method, String path, String body, String idempotencyKey) {
      this(method, path, body, idempotencyKey, null);
    }
  }

  /** What a phase measured. */
  record Result(
      String name,
      long requests,
      Map<Integer, Long> statuses,
      double seconds,
      Histogram latencyMicros) {
    long errors() {
      return statuses.entrySet().stream()
          .filter(e -> e.getKey() != 200)
          .mapToLong(Map.Entry::getValue)
          .sum();
    }

    double throughput() {
      return requests / seconds;
    }

    double p50Millis() {
      return latencyMicros.getValueAtPercentile(50) / 1000.0;
    }

    double p99Millis() {
      return latencyMicros.getValueAtPercentile(99) / 1000.0;
    }

    /** Prints {@code results} as a Markdown table: requests, errors, p50 and p99. */
    static void printTable(Duration phase, List<Result> results) {
      System.out.printf(
          Locale.ROOT,
          "%n| phase (%ds) | requests | errors | p50 ms | p99 ms |%n|---|---:|---:|---:|---:|%n",
          phase.toSeconds());
      for (Result r : results) {
        System.out.printf(
            Locale.ROOT,
            "| %s | %d | %d | %.1f | %.1f |%n",
            r.name(),
            r.requests(),
            r.errors(),
            r.p50Millis(),
            r.p99Millis());
      }
    }
  }

  private LoadGenerator(HttpClient client) {
    this.client = client;
  }

  /** The same generator sending {@code cookie} with every request (a dashboard session). */
  LoadGenerator withCookie(String cookie) {
    return new LoadGenerator(client.headers(h -> h.add("cookie", cookie)));
  }

  LoadGenerator(String baseUrl, String token) {
    this.client =
        HttpClient.create(
                ConnectionProvider.builder("bench")
                    .maxConnections(512)
                    .pendingAcquireMaxCount(-1)
                    .build())
            .baseUrl(baseUrl)
            .responseTimeout(Duration.ofSeconds(30))
            .headers(h -> h.add("x-api-token", token).add("content-type", "application/json"));
  }

  Result openLoop(String name, double ratePerSecond, Duration duration, LongFunction<Call> calls) {
    long periodNanos = (long) (1_000_000_000L / ratePerSecond);
    long count = (long) (ratePerSecond * duration.toNanos() / 1e9);
    Histogram histogram = new Histogram(60_000_000L, 3);
    Map<Integer, Long> statuses = new ConcurrentHashMap<>();
    long start = System.nanoTime();
    Flux.interval(Duration.ofNanos(periodNanos))
        .onBackpressureBuffer()
        .take(count)
        .flatMap(
            i -> {
              long scheduled = start + (i + 1) * periodNanos;
              return send(calls.apply(i))
                  .doOnNext(status -> record(histogram, statuses, scheduled, status));
            },
            4096)
        .blockLast(duration.plusSeconds(60));
    return new Result(name, count, statuses, (System.nanoTime() - start) / 1e9, histogram);
  }

  Result closedLoop(String name, int inFlight, Duration duration, LongFunction<Call> calls) {
    Histogram histogram = new Histogram(60_000_000L, 3);
    Map<Integer, Long> statuses = new ConcurrentHashMap<>();
    AtomicLong sequence = new AtomicLong();
    long start = System.nanoTime();
    long end = start + duration.toNanos();
    Flux.range(0, inFlight)
        .flatMap(
            worker ->
                Mono.defer(
                        () -> {
                          long begun = System.nanoTime();
                          return send(calls.apply(sequence.getAndIncrement()))
                              .doOnNext(status -> record(histogram, statuses, begun, status));
                        })
                    .repeat(() -> System.nanoTime() < end),
            inFlight)
        .blockLast(duration.plusSeconds(60));
    long requests = histogram.getTotalCount();
    return new Result(name, requests, statuses, (System.nanoTime() - start) / 1e9, histogram);
  }

  /**
   * Sends {@code count} calls, {@code inFlight} at a time, each until it gets a final answer: a
   * 429, a 503 or no answer is the stack saying "not now", and the call is sent again after a
   * backoff (100 ms doubling to 2 s) with the same {@code Idempotency-Key}, so one that took effect
   * before its 503 is not applied twice. Seeding with it never fails for load it created itself.
   * The result holds each call's final status; {@code retried} counts the answers waited out.
   */
  Result untilAnswered(
      String name, int inFlight, long count, LongFunction<Call> calls, Map<Integer, Long> retried) {
    Histogram histogram = new Histogram(600_000_000L, 3);
    Map<Integer, Long> statuses = new ConcurrentHashMap<>();
    long start = System.nanoTime();
    Flux.range(0, (int) count)
        .flatMap(
            i -> {
              Call call = calls.apply(i);
              long begun = System.nanoTime();
              return send(call)
                  .flatMap(
                      status ->
                          status == 429 || status == 503 || status == -1
                              ? Mono.error(new NotNow(status))
                              : Mono.just(status))
                  .doOnError(NotNow.class, e -> retried.merge(e.status, 1L, Long::sum))
                  .retryWhen(
                      Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(100))
                          .maxBackoff(Duration.ofSeconds(2))
                          .filter(NotNow.class::isInstance))
                  .doOnNext(status -> record(histogram, statuses, begun, status));
            },
            inFlight)
        .blockLast(Duration.ofMinutes(10));
    return new Result(name, count, statuses, (System.nanoTime() - start) / 1e9, histogram);
  }

  /** An answer meaning "not now": a 429, a 503, or none (-1). */
  private static final class NotNow extends RuntimeException {
    private final int status;

    NotNow(int status) {
      super(null, null, false, false);
      this.status = status;
    }
  }

  private Mono<Integer> send(Call call) {
    HttpClient tokened =
        call.token() == null ? client : client.headers(h -> h.set("x-api-token", call.token()));
    HttpClient keyed =
        call.idempotencyKey() == null
            ? tokened
            : tokened.headers(h -> h.add("Idempotency-Key", call.idempotencyKey()));
    HttpClient.ResponseReceiver<?> request =
        call.body() == null
            ? keyed.get().uri(call.path())
            : keyed
                .post()
                .uri(call.path())
                .send(
                    Mono.just(
                        Unpooled.wrappedBuffer(call.body().getBytes(StandardCharsets.UTF_8))));
    return request
        .responseSingle((response, body) -> body.then(Mono.just(response.status().code())))
        .onErrorResume(e -> Mono.just(-1));
  }

  private static void record(
      Histogram histogram, Map<Integer, Long> statuses, long startNanos, int status) {
    synchronized (histogram) {
      histogram.recordValue(Math.max(1, (System.nanoTime() - startNanos) / 1000));
    }
    statuses.merge(status, 1L, Long::sum);
  }
}
