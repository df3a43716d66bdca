package dev.trainyard.cli.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import javax.net.ssl.SSLException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The v1 API over HTTP: every operation is a POST of JSON answered 200 with JSON (API.md §1). A
 * mutation carries one {@code Idempotency-Key} for all its attempts, so a retry after a lost answer
 * is never applied twice; a read carries none.
 */
public final class Client {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(CONNECT_TIMEOUT)
          .build();
  private final ObjectMapper mapper;
  private final Settings settings;
  private final Retrying retrying;
  private final Pauses pauses;
  private final Exchange.Observer observer;
  private final String userAgent;

  public Client(
      ObjectMapper mapper,
      Settings settings,
      Retrying retrying,
      Pauses pauses,
      Exchange.Observer observer,
      String version) {
    this.mapper = mapper;
    this.settings = settings;
    this.retrying = retrying;
    this.pauses = pauses;
    this.observer = observer;
    this.userAgent = "trainyard-cli/" + version;
  }

  /** A read ({@code get…}, {@code list…}): the answer's JSON. */
  public JsonNode read(String path, JsonNode body) {
    return send(path, body, Optional.empty());
  }

  /** A mutation, under a key of its own for all its attempts: the answer's JSON. */
  public JsonNode change(String path, JsonNode body) {
    return send(path, body, Optional.of("trainyard-cli-" + UUID.randomUUID()));
  }

  private JsonNode send(String path, JsonNode body, Optional<String> key) {
    String json = mapper.writeValueAsString(body);
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(settings.url() + path))
            .timeout(ANSWER_TIMEOUT)
            .header("content-type", "application/json")
            .header("x-api-token", settings.token())
            .header("user-agent", userAgent)
            .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
    key.ifPresent(k -> request.header("Idempotency-Key", k));
    long started = pauses.nanoTime();
    for (int attempt = 1; ; attempt++) {
      Optional<Duration> retryAfter = Optional.empty();
      String why;
      try {
        HttpResponse<String> answer =
            http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        observer.exchanged(
            new Exchange("POST", path, json, answer.statusCode(), headers(answer), answer.body()));
        if (answer.statusCode() == 200) {
          return json(path, answer.body());
        }
        if (!Retrying.again(answer.statusCode(), answer.body(), key.isPresent())) {
          throw Refused.answer(answer.statusCode(), answer.body());
        }
        retryAfter = Retrying.retryAfter(answer.headers().firstValue("retry-after").orElse(null));
        String said = Refused.firstLine(answer.body());
        why =
            "the server answered "
                + answer.statusCode()
                + (said.isEmpty() ? "" : " (" + said + ")");
      } catch (SSLException e) {
        // a certificate or protocol mismatch does not mend itself within a retry budget
        throw Refused.unavailable("TLS with " + settings.url() + " failed: " + e.getMessage());
      } catch (IOException e) {
        why = "could not reach " + settings.url() + " (" + e.getClass().getSimpleName() + ")";
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw Refused.unavailable("interrupted");
      }
      Duration spent = since(started);
      Optional<Duration> pause = retrying.pause(attempt, retryAfter, spent);
      if (pause.isEmpty()) {
        throw Refused.unavailable(
            why + "; gave up after " + attempt + " attempts in " + spent.toSeconds() + " s");
      }
      pause(pause.get());
    }
  }

  /** Waits {@code pause} (between a command's polls too). */
  public void pause(Duration pause) {
    try {
      pauses.pause(pause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Refused.unavailable("interrupted");
    }
  }

  /** How long since {@code started}, a {@link #now()}. */
  public Duration since(long started) {
    return Duration.ofNanos(pauses.nanoTime() - started);
  }

  /** The time budgets are measured from. */
  public long now() {
    return pauses.nanoTime();
  }

  private JsonNode json(String path, String body) {
    try {
      return mapper.readTree(body);
    } catch (JacksonException e) {
      throw Refused.unavailable(path + " answered 200 with a body that is not JSON");
    }
  }

  private static Map<String, String> headers(HttpResponse<?> answer) {
    Map<String, String> headers = new TreeMap<>();
    answer
        .headers()
        .map()
        .forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), values.get(0)));
    return headers;
  }
}
