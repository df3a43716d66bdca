package dev.trainyard.webhooks.delivery;

import dev.trainyard.common.net.OutboundGuard;
import dev.trainyard.common.net.OutboundRefusedException;
import dev.trainyard.common.webhook.EndpointSecret;
import dev.trainyard.common.webhook.SecretBox;
import dev.trainyard.common.webhook.WebhookDelivery;
import dev.trainyard.common.webhook.WebhookEndpoint;
import dev.trainyard.webhooks.endpoints.EndpointStore;
import dev.trainyard.webhooks.outbound.WebhookClient;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.tracing.Span;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
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
 * after the schedule's next delay ({@code Retry-After} for 429 and 503). Every connection goes
 * through the outbound guard again ({@link WebhookClient}): a URL or address it refuses is a failed
 * attempt that made no connection, logged as {@code refused: …}.
 */
public class Dispatcher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);
  private static final int BATCH = 200;
  private static final int QUEUED_PER_SLOT = 4;
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
  private final InstantSource clock;
  private final Settings settings;
  private final WebhookClient http;
  private final CircuitBreakerRegistry breakers;
  private final Map<String, Semaphore> slots = new ConcurrentHashMap<>();
  private final Map<String, Deque<Claimed>> waiting = new ConcurrentHashMap<>();
  private final String owner = UUID.randomUUID().toString();
  private final ExecutorService pool = Executors.newFixedThreadPool(4);
  private final AtomicBoolean polling = new AtomicBoolean();
  private final OutcomeWriter outcomes;
  private final DeliveryTelemetry telemetry;

  /** A delivery this instance claimed, with its endpoint as read at the claim. */
  private record Claimed(WebhookDelivery delivery, WebhookEndpoint endpoint) {}

  public Dispatcher(
      DeliveryStore deliveries,
      EndpointStore endpoints,
      SecretBox secrets,
      OutboundGuard guard,
      InstantSource clock,
      Settings settings,
      DeliveryTelemetry telemetry) {
    this.telemetry = telemetry;
    this.deliveries = deliveries;
    this.endpoints = endpoints;
    this.secrets = secrets;
    this.clock = clock;
    this.settings = settings;
    this.outcomes = new OutcomeWriter(deliveries);
    this.http = new WebhookClient(guard, settings.timeout());
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

  /**
   * Claims a batch of due deliveries into per-endpoint queues and starts what the endpoints' free
   * slots allow; a finished attempt starts the next one of its endpoint, and asks for a new batch
   * when the queues run dry.
   */
  @Scheduled(fixedDelayString = "${trainyard.webhook.poll-interval:500ms}")
  public void poll() {
    if (!polling.compareAndSet(false, true)) {
      return;
    }
    try {
      if (queued() < BATCH) {
        claim(clock.instant());
      }
      waiting.keySet().forEach(this::drain);
    } catch (RuntimeException e) {
      log.warn("could not claim due webhook deliveries; the next poll retries: {}", e.toString());
    } finally {
      polling.set(false);
    }
  }

  /**
   * Measures how long ago the oldest due delivery became due: seconds while the dispatchers keep
   * up; more when they do not (an endpoint's own failures only move its retries later).
   */
  @Scheduled(
      fixedDelayString = "${trainyard.webhook.overdue-check-interval:30s}",
      initialDelayString = "${trainyard.webhook.overdue-check-interval:30s}")
  public void measureOverdue() {
    Instant now = clock.instant();
    try {
      telemetry.overdue(
          deliveries.oldestDue(now).map(due -> Duration.between(due, now)).orElse(Duration.ZERO));
    } catch (RuntimeException e) {
      log.warn(
          "could not look for overdue webhook deliveries; the next round retries: {}",
          e.toString());
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
    http.close();
    outcomes.close();
  }

  private void claim(Instant now) {
    List<WebhookDelivery> claimed =
        deliveries.claimDue(now, now.plus(settings.lease()), owner, BATCH - queued());
    if (claimed.isEmpty()) {
      return;
    }
    Map<String, WebhookEndpoint> known =
        endpoints.find(claimed.stream().map(WebhookDelivery::endpointId).distinct().toList());
    List<String> giveBack = new ArrayList<>();
    int perEndpoint = settings.maxInFlightPerEndpoint() * QUEUED_PER_SLOT;
    for (WebhookDelivery d : claimed) {
      WebhookEndpoint endpoint = known.get(d.endpointId());
      if (endpoint == null || endpoint.disabled()) {
        String why = endpoint == null ? "endpoint deleted" : "endpoint disabled";
        deliveries.attempted(
            d.id(), new WebhookDelivery.Attempt(now, 0, 0, why), WebhookDelivery.FAILED, null);
        continue;
      }
      Deque<Claimed> queue =
          waiting.computeIfAbsent(d.endpointId(), id -> new ConcurrentLinkedDeque<>());
      if (queue.size() >= perEndpoint) {
        giveBack.add(d.id()); // a slow endpoint keeps no more than it can send within the lease
      } else {
        queue.add(new Claimed(d, endpoint));
      }
    }
    deliveries.release(giveBack);
  }

  /** Starts queued deliveries of one endpoint while it has free slots. */
  private void drain(String endpointId) {
    Deque<Claimed> queue = waiting.get(endpointId);
    Semaphore free =
        slots.computeIfAbsent(endpointId, id -> new Semaphore(settings.maxInFlightPerEndpoint()));
    while (queue != null && !queue.isEmpty() && free.tryAcquire()) {
      Claimed next = queue.poll();
      if (next == null) {
        free.release();
        return;
      }
      CircuitBreaker breaker = breakers.circuitBreaker(endpointId);
      if (!breaker.tryAcquirePermission()) {
        deliveries.postpone(next.delivery().id(), clock.instant().plus(OPEN_CIRCUIT_WAIT));
        free.release();
        continue;
      }
      pool.execute(() -> attempt(next.delivery(), next.endpoint(), breaker, free));
    }
  }

  private int queued() {
    return waiting.values().stream().mapToInt(Deque::size).sum();
  }

  private void attempt(
      WebhookDelivery d, WebhookEndpoint endpoint, CircuitBreaker breaker, Semaphore held) {
    Instant started = clock.instant();
    Span span = telemetry.started(d, Instant.now());
    long timestamp = started.getEpochSecond();
    List<String> signing =
        endpoint.secrets().stream()
            .filter(s -> s.signsAt(started))
            .map(s -> secrets.open(s.encrypted(), EndpointSecret.place(endpoint.id())))
            .toList();
    String signature = Signer.signature(d.id(), timestamp, d.body(), signing);
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("content-type", "application/json");
    headers.put("user-agent", "trainyard-webhooks/1");
    headers.put("webhook-id", d.id());
    headers.put("webhook-timestamp", Long.toString(timestamp));
    headers.put("webhook-signature", signature);
    headers.put("svix-id", d.id());
    headers.put("svix-timestamp", Long.toString(timestamp));
    headers.put("svix-signature", signature);
    http.post(endpoint.url(), headers, d.body())
        .toFuture()
        .whenCompleteAsync(
            (answer, error) ->
                finish(
                    d,
                    endpoint,
                    breaker,
                    held,
                    started,
                    span,
                    answer == null ? 0 : answer.status(),
                    error == null ? null : describe(error),
                    answer),
            pool);
  }

  private void finish(
      WebhookDelivery d,
      WebhookEndpoint endpoint,
      CircuitBreaker breaker,
      Semaphore held,
      Instant started,
      Span span,
      int status,
      String error,
      WebhookClient.Answer answer) {
    try {
      Instant now = clock.instant();
      long latency = Duration.between(started, now).toMillis();
      String problem = error != null ? error : (status / 100 == 2 ? null : "HTTP " + status);
      WebhookDelivery.Attempt attempt =
          new WebhookDelivery.Attempt(started, status, latency, problem);
      telemetry.attempted(d, span, status, problem, Instant.now());
      NextStep next =
          NextStep.after(
              new NextStep.Attempted(
                  status,
                  error,
                  retryAfter(status, answer),
                  endpoint.failingSince(),
                  d.attempts().size(),
                  now),
              settings.schedule(),
              settings.disableAfter());
      if (next.status().equals(WebhookDelivery.DELIVERED)) {
        breaker.onSuccess(latency, TimeUnit.MILLISECONDS);
        if (endpoint.failingSince() != null) {
          endpoints.succeeded(endpoint.id());
        }
      } else {
        breaker.onError(latency, TimeUnit.MILLISECONDS, new IllegalStateException(problem));
        endpoints.failed(endpoint.id(), started);
      }
      if (next.disableEndpoint() != null) {
        endpoints.disable(endpoint.id(), next.disableEndpoint());
        telemetry.endpointDisabled();
        log.warn("webhook endpoint {} disabled: {}", endpoint.id(), next.disableEndpoint());
      } else if (next.status().equals(WebhookDelivery.FAILED)) {
        log.warn("webhook delivery {} to {} exhausted its schedule", d.id(), endpoint.id());
      }
      outcomes.add(new DeliveryStore.Outcome(d.id(), attempt, next.status(), next.nextAttemptAt()));
    } catch (RuntimeException e) {
      log.warn("could not record an attempt of {}; its lease lapses and it is retried", d.id(), e);
    } finally {
      held.release();
      drain(d.endpointId());
      if (queued() == 0) {
        wake(); // this batch is done: look for more
      }
    }
  }

  /** {@code Retry-After} in seconds on a 429 or 503, bounded to ten hours. */
  static Optional<Duration> retryAfter(int status, WebhookClient.Answer answer) {
    if (answer == null || (status != 429 && status != 503)) {
      return Optional.empty();
    }
    return answer
        .retryAfter()
        .filter(v -> v.matches("\\d{1,9}"))
        .map(v -> Duration.ofSeconds(Long.parseLong(v)))
        .map(d -> d.compareTo(LONGEST_RETRY_AFTER) > 0 ? LONGEST_RETRY_AFTER : d);
  }

  private static String describe(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof OutboundRefusedException) {
        return "refused: " + t.getMessage(); // no connection was made
      }
    }
    Throwable cause = error.getCause() != null ? error.getCause() : error;
    return cause.getClass().getSimpleName()
        + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
  }
}
