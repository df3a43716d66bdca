package dev.trainyard.bench.http;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import org.HdrHistogram.Histogram;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * Sends requests with reactor-netty and records latencies in an HDR histogram. Open loop: requests
 * start on a fixed schedule whatever the server does, and latency counts from the scheduled start
 * (no coordinated omission). Closed loop: a fixed number of requests in flight, for throughput.
 */
final class LoadGenerator {
  private final HttpClient client;

  /** One request: method, path and body (null for GET). */
  record Call(String method, String path, String body) {}

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

  private Mono<Integer> send(Call call) {
    HttpClient.ResponseReceiver<?> request =
        call.body() == null
            ? client.get().uri(call.path())
            : client
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
