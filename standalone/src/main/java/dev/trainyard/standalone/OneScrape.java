package dev.trainyard.standalone;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Set;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * In the standalone only the gateway has a management port: its {@code /actuator/prometheus} also
 * shows the {@code trainyard_*} meters of the worker, the dispatcher and the flaky-tests service
 * (their JVM, Kafka-client and store meters, and whether they reach the broker and the store, would
 * repeat the gateway's names, so they stay out; a cluster scrapes each service on its own port).
 */
final class OneScrape {
  private static final String OURS = "trainyard_";

  /** Meters every service has, which the gateway's own already tell: the same broker and store. */
  private static final Set<String> SHARED = Set.of("trainyard_dependency_up");

  private OneScrape() {}

  static void join(
      ConfigurableApplicationContext gateway, ConfigurableApplicationContext... services) {
    PrometheusRegistry scraped = gateway.getBeanProvider(PrometheusRegistry.class).getIfAvailable();
    if (scraped == null) {
      return;
    }
    for (ConfigurableApplicationContext service : services) {
      PrometheusMeterRegistry meters =
          service.getBeanProvider(PrometheusMeterRegistry.class).getIfAvailable();
      if (meters != null) {
        scraped.register(
            (MultiCollector)
                () ->
                    meters
                        .getPrometheusRegistry()
                        .scrape(name -> name.startsWith(OURS) && !SHARED.contains(name)));
      }
    }
  }
}
