package dev.trainyard.standalone.support;

import com.sun.net.httpserver.HttpServer;
import dev.trainyard.common.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.IntUnaryOperator;

/**
 * A real HTTP server that receives webhooks on loopback and records every request. {@code answer}
 * maps the n-th request (from 1) to the status it gets; {@code delayMillis} makes it slow; a 3xx
 * answer carries {@code Location: location} when one is set. Every delivery is held to the {@code
 * webhooks} of {@code docs/openapi.yaml}; {@link #close} fails the test if one did not match.
 */
public final class WebhookReceiver implements AutoCloseable {
  /** One request as it arrived, with the status it was answered with. */
  public record Received(Instant at, Map<String, String> headers, String body, int answeredWith) {
    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  private final HttpServer server;
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final List<String> undocumented = new CopyOnWriteArrayList<>();
  private volatile IntUnaryOperator answer = n -> 200;
  private volatile long delayMillis;
  private volatile String location;
  private volatile String retryAfter = "0";

  public WebhookReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext(
        "/hook",
        exchange -> {
          try (InputStream in = exchange.getRequestBody()) {
            String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (delayMillis > 0) {
              Thread.sleep(delayMillis); // the slow endpoint under test, not a wait in the test
            }
            Map<String, String> headers = new TreeMap<>();
            exchange
                .getRequestHeaders()
                .forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v.get(0)));
            int status;
            synchronized (this) {
              status = answer.applyAsInt(received.size() + 1);
              received.add(new Received(Instant.now(), headers, body, status));
            }
            try {
              undocumented.addAll(
                  Api.contract().checkWebhook(webhookOf(body), headers.keySet(), body));
            } catch (RuntimeException e) {
              undocumented.add("a delivery could not be checked: " + e);
            }
            if (status == 503 || status == 429) {
              exchange.getResponseHeaders().add("Retry-After", retryAfter);
            }
            if (status / 100 == 3 && location != null) {
              exchange.getResponseHeaders().add("Location", location);
            }
            exchange.sendResponseHeaders(status, -1);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } finally {
            exchange.close();
          }
        });
    server.start();
  }

  public String url() {
    return "http://127.0.0.1:" + port() + "/hook";
  }

  public int port() {
    return server.getAddress().getPort();
  }

  public void answer(IntUnaryOperator statusOfNthRequest) {
    this.answer = statusOfNthRequest;
  }

  /** Where 3xx answers point. */
  public void location(String url) {
    this.location = url;
  }

  /** What 429 and 503 answers say in {@code Retry-After} (seconds; "0" unless set). */
  public void retryAfter(String seconds) {
    this.retryAfter = seconds;
  }

  public void delay(long millis) {
    this.delayMillis = millis;
  }

  public List<Received> received() {
    return List.copyOf(received);
  }

  /** The requests answered 2xx: the deliveries that arrived. */
  public List<Received> delivered() {
    return received.stream().filter(r -> r.answeredWith() / 100 == 2).toList();
  }

  /**
   * The document's webhook for a delivery: a chat message's format, or an event's type's family
   * ({@code pull_request.*}, …).
   */
  private static String webhookOf(String body) {
    String type;
    try {
      var json = Json.mapper().readTree(body);
      if (json.has("blocks")) {
        return "slack_message";
      }
      if (json.has("attachments")) {
        return "teams_message";
      }
      type = json.path("type").asString("");
    } catch (RuntimeException notJson) {
      return "(no JSON)";
    }
    if (type.startsWith("pull_request_batch.")) {
      return "pull_request_batch";
    }
    return type.startsWith("pull_request.") ? "pull_request" : type;
  }

  @Override
  public void close() {
    server.stop(0);
    if (!undocumented.isEmpty()) {
      throw new AssertionError(
          "docs/openapi.yaml does not describe these deliveries:\n  "
              + String.join("\n  ", undocumented));
    }
  }
}
