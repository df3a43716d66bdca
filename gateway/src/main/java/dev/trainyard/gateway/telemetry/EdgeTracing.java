package dev.trainyard.gateway.telemetry;

import io.micrometer.observation.transport.ReceiverContext;
import io.micrometer.tracing.Link;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * The gateway is trainyard's edge: a request's span starts a trace of trainyard's own, sampled as
 * configured, and links the client's trace (its W3C {@code traceparent}, with its {@code
 * tracestate} as the link's attribute) rather than joining it. A client's sampled flag so never
 * forces trainyard to record and export its traces, and no caller's ids decide trainyard's; the
 * response's {@code traceparent} names the trace that finds the request in every service's logs.
 * Replaces Boot's receiving handler (same order), for HTTP requests, the gateway's only receiver.
 */
@Component
@Order(MicrometerTracingAutoConfiguration.RECEIVER_TRACING_OBSERVATION_HANDLER_ORDER)
public class EdgeTracing extends PropagatingReceiverTracingObservationHandler<ReceiverContext<?>> {
  private static final Pattern TRACEPARENT =
      Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})");
  private static final String ZERO_TRACE = "0".repeat(32);
  private static final String ZERO_SPAN = "0".repeat(16);

  private final Tracer tracer;

  public EdgeTracing(Tracer tracer, Propagator propagator) {
    super(tracer, propagator);
    this.tracer = tracer;
  }

  @Override
  public Span.Builder customizeExtractedSpan(ReceiverContext<?> context, Span.Builder builder) {
    builder.setNoParent();
    clientTrace(context).ifPresent(builder::addLink);
    return builder;
  }

  /** The link to the client's trace, when its {@code traceparent} is a valid one. */
  private Optional<Link> clientTrace(ReceiverContext<?> context) {
    String traceparent = header(context, "traceparent");
    if (traceparent == null) {
      return Optional.empty();
    }
    Matcher m = TRACEPARENT.matcher(traceparent.trim());
    if (!m.matches() || m.group(1).equals(ZERO_TRACE) || m.group(2).equals(ZERO_SPAN)) {
      return Optional.empty();
    }
    TraceContext client =
        tracer
            .traceContextBuilder()
            .traceId(m.group(1))
            .spanId(m.group(2))
            .sampled((Integer.parseInt(m.group(3), 16) & 1) == 1)
            .build();
    String tracestate = header(context, "tracestate");
    return Optional.of(
        tracestate == null || tracestate.isBlank()
            ? new Link(client)
            : new Link(client, Map.of("w3c.tracestate", tracestate)));
  }

  private static <C> String header(ReceiverContext<C> context, String name) {
    C carrier = context.getCarrier();
    return carrier == null ? null : context.getGetter().get(carrier, name);
  }
}
