package dev.trainyard.webhooks.delivery;

import dev.trainyard.common.telemetry.CommandLog;
import dev.trainyard.common.telemetry.LogFields;
import dev.trainyard.common.telemetry.ScmCalls;
import dev.trainyard.common.telemetry.Traces;
import dev.trainyard.common.webhook.WebhookDelivery;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.tracing.Span;
import java.time.Duration;
import java.time.Instant;

/**
 * What delivering reports. Each attempt is a span continuing the trace of the event (so of the
 * command that caused it), a DEBUG line with the trace's ids and the organization, and a count in
 * {@code trainyard.webhook.attempts} by outcome ({@code delivered}, {@code failed}, {@code
 * refused}: the outbound guard made no connection) and status class ({@code none} without a
 * response). {@code trainyard.webhook.delivery.delay} is an event's publication to its 2xx; {@code
 * trainyard.webhook.endpoints.disabled} counts endpoints disabled for failing; {@code
 * trainyard.webhook.deliveries.overdue} is how long ago the oldest due delivery became due.
 */
public final class DeliveryTelemetry {
  private final Traces traces;
  private final MeterRegistry meters;
  private final Timer delay;
  private volatile double overdueSeconds;

  public DeliveryTelemetry(Traces traces, MeterRegistry meters) {
    this.traces = traces;
    this.meters = meters;
    this.delay =
        Timer.builder("trainyard.webhook.delivery.delay")
            .description("an event's publication to its endpoint's 2xx")
            .publishPercentileHistogram()
            // retries reach hours (the default schedule waits up to 10 h between attempts, 32 h
            // in all): the buckets do too, or every late delivery counts as "over 30 s"
            .maximumExpectedValue(Duration.ofHours(36))
            .register(meters);
    meters.counter("trainyard.webhook.endpoints.disabled");
    Gauge.builder("trainyard.webhook.deliveries.overdue", this, t -> t.overdueSeconds)
        .description(
            "how long ago the oldest pending delivery became due (0: none is); a failing endpoint"
                + " only moves its own retries later, so this grows when the dispatchers fall behind")
        .baseUnit("seconds")
        .strongReference(true)
        .register(meters);
  }

  void overdue(Duration late) {
    overdueSeconds = late.toMillis() / 1000.0;
  }

  /** Reports nothing. */
  public static DeliveryTelemetry off() {
    return new DeliveryTelemetry(Traces.off(), new SimpleMeterRegistry());
  }

  Span started(WebhookDelivery d, Instant at) {
    return traces.start("webhook " + d.eventType(), d.traceparent(), Span.Kind.CLIENT, at);
  }

  /** One attempt finished with {@code status} (0: no response) and {@code problem} (null: 2xx). */
  void attempted(WebhookDelivery d, Span span, int status, String problem, Instant now) {
    String outcome =
        problem == null ? "delivered" : problem.startsWith("refused:") ? "refused" : "failed";
    String statusClass = status == 0 ? "none" : ScmCalls.statusClass(status);
    meters
        .counter("trainyard.webhook.attempts", "outcome", outcome, "status_class", statusClass)
        .increment();
    if (problem == null && d.eventAt() != null) {
      delay.record(Duration.between(d.eventAt(), now));
    }
    span.tag("outcome", outcome);
    span.tag("http.response.status_code", Integer.toString(status));
    if (problem != null) {
      span.error(new IllegalStateException(problem));
    }
    if (CommandLog.WEBHOOKS.isInfoEnabled()) {
      try (var scope = traces.inScope(span);
          var fields = LogFields.of(d.org(), null, null)) {
        CommandLog.WEBHOOKS.info(
            "{} {} to endpoint {}: {} ({})",
            d.eventType(),
            d.id(),
            d.endpointId(),
            outcome,
            problem == null ? status : problem);
      }
    }
    Traces.end(span, now);
  }

  void endpointDisabled() {
    meters.counter("trainyard.webhook.endpoints.disabled").increment();
  }
}
