package dev.trainyard.common.webhook;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;

/**
 * One event for one endpoint, and every attempt to deliver it. {@code id} is the {@code webhook-id}
 * on every attempt; {@code status} is {@code pending} (an attempt is due at {@code nextAttemptAt}),
 * {@code delivered}, or {@code failed} (the schedule is exhausted or the endpoint was disabled).
 * {@code eventAt} is when the event was published and {@code traceparent} its trace (both null on
 * deliveries recorded before they were kept).
 */
public record WebhookDelivery(
    @JsonProperty("_id") String id,
    String endpointId,
    String org,
    String eventId,
    String eventType,
    String body,
    Instant createdAt,
    String status,
    List<Attempt> attempts,
    Instant nextAttemptAt,
    Instant leaseUntil,
    @JsonInclude(JsonInclude.Include.NON_NULL) Instant eventAt,
    @JsonInclude(JsonInclude.Include.NON_NULL) String traceparent) {

  public static final String PENDING = "pending";
  public static final String DELIVERED = "delivered";
  public static final String FAILED = "failed";

  public WebhookDelivery {
    attempts = attempts == null ? List.of() : List.copyOf(attempts);
  }

  /** One HTTP attempt: status code (0 when none came back), latency, and the error if any. */
  public record Attempt(Instant at, int statusCode, long latencyMs, String error) {}
}
