package dev.trainyard.common.telemetry;

import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link Traces} in every service: over Boot's tracer (Micrometer Tracing with the OpenTelemetry
 * bridge) where there is one, else {@link Traces#off()}; and the help text of trainyard's meters.
 */
@AutoConfiguration(
    afterName =
        "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration")
public class TelemetryConfiguration {

  /** The help text of trainyard's meters ({@link MeterDescriptions}). */
  @Bean
  MeterFilter trainyardMeterDescriptions() {
    return MeterDescriptions.filter();
  }

  @Bean
  @ConditionalOnMissingBean
  Traces traces(ObjectProvider<Tracer> tracer, ObjectProvider<Propagator> propagator) {
    Tracer t = tracer.getIfAvailable();
    Propagator p = propagator.getIfAvailable();
    return t == null || p == null ? Traces.off() : new Traces(t, p);
  }
}
