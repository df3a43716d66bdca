package dev.trainyard.webhooks.delivery;

import dev.trainyard.common.webhook.EndpointSecret;
import dev.trainyard.common.webhook.SecretBox;
import dev.trainyard.common.webhook.UrlGuard;
import dev.trainyard.common.webhook.WebhookDelivery;
import dev.trainyard.common.webhook.WebhookEndpoint;
import dev.trainyard.webhooks.endpoints.EndpointStore;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Attempts the due deliveries. Each endpoint has a bounded number of attempts in flight and a
 * circuit breaker, and every call is asynchronous with a timeout, so one slow or dead endpoint
 * never delays deliveries to the others. After an attempt the delivery is delivered, failed (410
 * Gone, schedule exhausted, or its endpoint disabled after failing for too long), or due again
 * after the schedule's next delay ({@code Retry-After} for 429 and 503).
 */
public class Dispatcher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);
  private static final int BATCH = 200;
  private static final Duration OPEN_CIRCUIT_WAIT = Duration.ofSeconds(5);
  private static final Duration LONGEST_RETRY_AFTER = Duration.ofHours(10);

  /** How the dispatcher is configured; see {@code DispatcherProperties}. */
  public record Settings(
      RetrySchedule schedule,
      Duration timeout,
      int maxInFlightPerEndpoint,
      Duration disableAfter,
      Duration lease) {}

  private final DeliveryStore deliveries;
  private final EndpointStore endpoints;
  private final SecretBox secrets;
  private final UrlGuard guard;
  private final InstantSource clock;
  private final Settings settings;
  private final HttpClient http;
  private final CircuitBreakerRegistry breakers;
  private final Map<String, Semaphore> slots = new ConcurrentHashMap<>();
  private final ExecutorService pool = Executors.newFixedThreadPool(4);
  private final AtomicBoolean polling = new AtomicBoolean();

  public Dispatcher(
      DeliveryStore deliveries,
      EndpointStore endpoints,
      SecretBox secrets,
      UrlGuard guard,
      InstantSource clock,
      Settings settings) {
    this.deliveries = deliveries;
    this.endpoints = endpoints;
    this.secrets = secrets;
    this.guard = guard;
    this.clock = clock;
    this.settings = settings;
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(settings.timeout())
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    this.breakers =
        CircuitBreakerRegistry.of(
            CircuitBreakerConfig.custom()
                .slidingWindowSize(10)
                .minimumNumberOfCalls(5)
                .failureRateThreshold(50)
                .waitDurationInOpenState(OPEN_CIRCUIT_WAIT)
                .permittedNumberOfCallsInHalfOpenState(1)
                .build());
  }

  /** New deliveries were recorded: look now rather than at the next poll. */
  public void wake() {
    pool.execute(this::poll);
  }

  @Scheduled(fixedDelayString = "${trainyard.webhook.poll-interval:500ms}")
  public void poll() {
    if (!polling.compareAndSet(false, true)) {
      return;
    }
    try {
      Instant now = clock.instant();
      for (WebhookDelivery d : deliveries.due(now, BATCH)) {
        start(d, now);
      }
    } catch (RuntimeException e) {
      log.warn("could not read due webhook deliveries; the next poll retries: {}", e.toString());
    } finally {
      polling.set(false);
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }

  private void start(WebhookDelivery d, Instant now) {
    Semaphore endpointSlots =
        slots.computeIfAbsent(
            d.endpointId(), id -> new Semaphore(settings.maxInFlightPerEndpoint()));
    if (!endpointSlots.tryAcquire()) {
      return; // this endpoint is busy; the next poll tries again
    }
    if (!deliveries.claim(d.id(), now, now.plus(settings.lease()))) {
      endpointSlots.release();
      return;
    }
    Optional<WebhookEndpoint> endpoint = endpoints.find(d.endpointId());
    if (endpoint.isEmpty() || endpoint.get().disabled()) {
      String why = endpoint.isEmpty() ? "endpoint deleted" : "endpoint disabled";
      deliveries.attempted(
          d.id(), new WebhookDelivery.Attempt(now, 0, 0, why), WebhookDelivery.FAILED, null);
      endpointSlots.release();
      return;
    }
    CircuitBreaker breaker = breakers.circuitBreaker(d.endpointId());
    if (!breaker.tryAcquirePermission()) {
      deliveries.postpone(d.id(), now.plus(OPEN_CIRCUIT_WAIT));
      endpointSlots.release();
      return;
    }
    pool.execute(() -> attempt(d, endpoint.get(), breaker, endpointSlots));
  }

  private void attempt(
      WebhookDelivery d, WebhookEndpoint endpoint, CircuitBreaker breaker, Semaphore held) {
    Instant started = clock.instant();
    Optional<String> refused = guard.problem(endpoint.url());
    if (refused.isPresent()) {
      finish(d, endpoint, breaker, held, started, 0, "refused: " + refused.get(), null);
      return;
    }
    long timestamp = started.getEpochSecond();
    List<String> signing =
        endpoint.secrets().stream()
            .filter(s -> s.signsAt(started))
            .map(EndpointSecret::encrypted)
            .map(secrets::open)
            .toList();
    String signature = Signer.signature(d.id(), timestamp, d.body(), signing);
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(endpoint.url()))
            .timeout(settings.timeout())
            .header("content-type", "application/json")
            .header("user-agent", "trainyard-webhooks/1")
            .header("webhook-id", d.id())
            .header("webhook-timestamp", Long.toString(timestamp))
            .header("webhook-signature", signature)
            .header("svix-id", d.id())
            .header("svix-timestamp", Long.toString(timestamp))
            .header("svix-signature", signature)
            .POST(HttpRequest.BodyPublishers.ofString(d.body()))
            .build();
    http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
        .whenCompleteAsync(
            (response, error) ->
                finish(
                    d,
                    endpoint,
                    breaker,
                    held,
                    started,
                    response == null ? 0 : response.statusCode(),
                    error == null ? null : describe(error),
                    response),
            pool);
  }

  private void finish(
      WebhookDelivery d,
      WebhookEndpoint endpoint,
      CircuitBreaker breaker,
      Semaphore held,
      Instant started,
      int status,
      String error,
      HttpResponse<?> response) {
    try {
      Instant now = clock.instant();
      long latency = Duration.between(started, now).toMillis();
      String problem = error != null ? error : (status / 100 == 2 ? null : "HTTP " + status);
      WebhookDelivery.Attempt attempt =
          new WebhookDelivery.Attempt(started, status, latency, problem);
      NextStep next =
          NextStep.after(
              new NextStep.Attempted(
                  status,
                  error,
                  retryAfter(status, response),
                  endpoint.failingSince(),
                  d.attempts().size(),
                  now),
              settings.schedule(),
              settings.disableAfter());
      if (next.status().equals(WebhookDelivery.DELIVERED)) {
        breaker.onSuccess(latency, TimeUnit.MILLISECONDS);
        endpoints.succeeded(endpoint.id());
      } else {
        breaker.onError(latency, TimeUnit.MILLISECONDS, new IllegalStateException(problem));
        endpoints.failed(endpoint.id(), started);
      }
      if (next.disableEndpoint() != null) {
        endpoints.disable(endpoint.id(), next.disableEndpoint());
        log.warn("webhook endpoint {} disabled: {}", endpoint.id(), next.disableEndpoint());
      } else if (next.status().equals(WebhookDelivery.FAILED)) {
        log.warn("webhook delivery {} to {} exhausted its schedule", d.id(), endpoint.id());
      }
      deliveries.attempted(d.id(), attempt, next.status(), next.nextAttemptAt());
    } catch (RuntimeException e) {
      log.warn("could not record an attempt of {}; its lease lapses and it is retried", d.id(), e);
    } finally {
      held.release();
    }
  }

  /** {@code Retry-After} in seconds on a 429 or 503, bounded to ten hours. */
  static Optional<Duration> retryAfter(int status, HttpResponse<?> response) {
    if (response == null || (status != 429 && status != 503)) {
      return Optional.empty();
    }
    return response
        .headers()
        .firstValue("retry-after")
        .filter(v -> v.matches("\\d{1,9}"))
        .map(v -> Duration.ofSeconds(Long.parseLong(v)))
        .map(d -> d.compareTo(LONGEST_RETRY_AFTER) > 0 ? LONGEST_RETRY_AFTER : d);
  }

  private static String describe(Throwable error) {
    Throwable cause = error.getCause() != null ? error.getCause() : error;
    return cause.getClass().getSimpleName()
        + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
  }
}
