package dev.trainyard.common.telemetry;

import dev.trainyard.common.queue.QueueKey;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Carries a trace from one service to the next as a W3C {@code traceparent}: in a command's
 * envelope, in an outbox entry, in a Kafka record header. Spans continue the trace they are given,
 * or start one of their own (sampled as configured) when there is none. Without tracing on the
 * class path or configured, {@link #off()} does nothing and carries nothing.
 */
public final class Traces {
  /** The W3C header (and Kafka record header) that carries a trace. */
  public static final String TRACEPARENT = "traceparent";

  private final Tracer tracer;
  private final Propagator propagator;

  public Traces(Tracer tracer, Propagator propagator) {
    this.tracer = tracer;
    this.propagator = propagator;
  }

  /** Traces that record nothing and carry nothing (tests, a service without tracing). */
  public static Traces off() {
    return new Traces(Tracer.NOOP, Propagator.NOOP);
  }

  /** The {@code traceparent} of the span in scope on this thread, or null. */
  public String current() {
    Span span = tracer.currentSpan();
    return span == null ? null : traceparent(span);
  }

  /**
   * The {@code traceparent} that continues {@code span}'s trace under it, or null (no span, or
   * tracing off). An unsampled span has one too (flags {@code 00}): its ids still tie the services'
   * log lines of one request together, though no span of it is exported.
   */
  public String traceparent(Span span) {
    return span == null ? null : traceparent(span.context());
  }

  /**
   * Formats the W3C header straight from the ids, as every request's answer carries one (the
   * propagator would build a map and pass baggage to write one string); null when tracing is off or
   * the ids are not W3C's (a no-op span's are empty).
   */
  private String traceparent(TraceContext context) {
    if (propagator == Propagator.NOOP || context == null) {
      return null;
    }
    String trace = context.traceId();
    String span = context.spanId();
    if (trace == null || trace.length() != 32 || span == null || span.length() != 16) {
      return null;
    }
    return "00-" + trace + "-" + span + (Boolean.TRUE.equals(context.sampled()) ? "-01" : "-00");
  }

  /**
   * Starts a span under {@code traceparent} (a new trace when it is null or malformed), at {@code
   * start} (null: now).
   */
  public Span start(String name, String traceparent, Span.Kind kind, Instant start) {
    Span.Builder builder =
        traceparent == null
            ? tracer.spanBuilder().setNoParent()
            : propagator.extract(Map.of(TRACEPARENT, traceparent), Map::get);
    builder.name(name).kind(kind);
    if (start != null) {
      builder.startTimestamp(micros(start), TimeUnit.MICROSECONDS);
    }
    return builder.start();
  }

  /** A span under {@code parent}, from {@code start} to {@code end}: a phase measured already. */
  public void phase(Span parent, String name, Instant start, Instant end) {
    if (parent == null || parent.isNoop()) {
      return;
    }
    tracer
        .spanBuilder()
        .setParent(parent.context())
        .name(name)
        .startTimestamp(micros(start), TimeUnit.MICROSECONDS)
        .start()
        .end(micros(end), TimeUnit.MICROSECONDS);
  }

  /**
   * Makes {@code span} the current one until the scope closes (log lines carry its ids); a null
   * span changes nothing.
   */
  public Tracer.SpanInScope inScope(Span span) {
    return span == null ? Tracer.NOOP.withSpan(null) : tracer.withSpan(span);
  }

  /**
   * Describes a command's span by OpenTelemetry's messaging conventions (the system, the operation
   * — {@code send} at the gateway, {@code process} at the worker —, the topic when known, the
   * command id) and by trainyard's own attributes: the organization, the queue and the pull request
   * (when the command is about one).
   */
  public static void command(
      Span span, String operation, String topic, QueueKey queue, Long pr, String commandId) {
    span.tag("messaging.system", "kafka");
    span.tag("messaging.operation.type", operation);
    if (topic != null) {
      span.tag("messaging.destination.name", topic);
    }
    span.tag("messaging.message.id", commandId);
    span.tag("trainyard.org", queue.org());
    span.tag("trainyard.queue", queue.id());
    if (pr != null) {
      span.tag("trainyard.pr", pr.toString());
    }
  }

  /** Ends {@code span} at {@code end}. */
  public static void end(Span span, Instant end) {
    span.end(micros(end), TimeUnit.MICROSECONDS);
  }

  /** Adds {@code traceparent} (when there is one) to a Kafka record's headers. */
  public static void addHeader(Headers headers, String traceparent) {
    if (traceparent != null) {
      headers.add(TRACEPARENT, traceparent.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** The {@code traceparent} a Kafka record carries, or null. */
  public static String header(Headers headers) {
    Header header = headers.lastHeader(TRACEPARENT);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  private static long micros(Instant at) {
    return TimeUnit.SECONDS.toMicros(at.getEpochSecond()) + at.getNano() / 1_000;
  }
}
