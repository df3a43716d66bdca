package dev.trainyard.bench.webhooks;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The local receiver both measurements post to: answers 204 at once and records, for bodies that
 * carry one, the delay from the event's {@code timestamp} to its arrival.
 */
final class Receiver implements AutoCloseable {
  private static final Pattern TIMESTAMP = Pattern.compile("\"timestamp\":\"([^\"]+)\"");
  private final HttpServer server;
  private final ExecutorService threads = Executors.newFixedThreadPool(8);
  private final AtomicLong received = new AtomicLong();
  private final Queue<Long> delaysMicros = new ConcurrentLinkedQueue<>();
  private volatile long firstNanos;
  private volatile long lastNanos;

  Receiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 512);
    server.setExecutor(threads);
    server.createContext(
        "/hook",
        exchange -> {
          try (InputStream in = exchange.getRequestBody()) {
            String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Instant now = Instant.now();
            long nanos = System.nanoTime();
            if (received.getAndIncrement() == 0) {
              firstNanos = nanos;
            }
            lastNanos = nanos;
            Matcher m = TIMESTAMP.matcher(body);
            if (m.find()) {
              Instant happened = Instant.parse(m.group(1));
              delaysMicros.add(java.time.Duration.between(happened, now).toNanos() / 1_000);
            }
            exchange.sendResponseHeaders(204, -1);
          } finally {
            exchange.close();
          }
        });
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
  }

  /** Forgets what arrived so far (after a warm-up). */
  void reset() {
    received.set(0);
    delaysMicros.clear();
  }

  long received() {
    return received.get();
  }

  /** Arrivals per second between the first and the last arrival since the reset. */
  double rate() {
    long n = received.get();
    return n < 2 ? 0 : (n - 1) / ((lastNanos - firstNanos) / 1e9);
  }

  Queue<Long> delaysMicros() {
    return delaysMicros;
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
