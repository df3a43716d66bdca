package dev.trainyard.gateway.telemetry;

import dev.trainyard.common.telemetry.Traces;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.TracingObservationHandler;
import java.util.Optional;
import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * Every response names its trace in a W3C {@code traceparent} header (a trace of trainyard's own: a
 * client's {@code traceparent} is linked, not joined, {@link EdgeTracing}), and the request's span
 * is handed to what the request sends on ({@link #of(ContextView)}), so a command continues the
 * trace without relying on thread-locals across the reactive chain.
 */
@Component
public class RequestSpans implements WebFilter, Ordered {
  private final Traces traces;

  public RequestSpans(Traces traces) {
    this.traces = traces;
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    Optional<Span> span =
        ServerRequestObservationContext.findCurrent(exchange.getAttributes())
            .map(
                c ->
                    c.<TracingObservationHandler.TracingContext>get(
                        TracingObservationHandler.TracingContext.class))
            .map(TracingObservationHandler.TracingContext::getSpan);
    String traceparent = span.map(traces::traceparent).orElse(null);
    if (traceparent == null) {
      return chain.filter(exchange);
    }
    exchange.getResponse().getHeaders().set(Traces.TRACEPARENT, traceparent);
    return chain.filter(exchange).contextWrite(c -> c.put(Span.class, span.get()));
  }

  /** The span of the request being served, or null. */
  public static Span of(ContextView context) {
    return context.getOrDefault(Span.class, null);
  }
}
