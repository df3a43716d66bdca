package dev.trainyard.common.boot;

import java.time.Duration;
import org.springframework.http.client.ReactorResourceFactory;

/**
 * Netty event loops owned by one Spring context. Several services share one JVM in the standalone
 * (and in tests), and closing one context must not stop another's server, so no service uses
 * Reactor Netty's global loops. They stop after a quiet period of {@link #QUIET_PERIOD} instead of
 * Netty's 2 s: the graceful shutdown has finished every request by then, and 2 s per service made
 * stopping the standalone (and every test stack) seconds longer than its work.
 */
public final class ContextEventLoops {
  /** How long the loops wait for new work before they stop. */
  public static final Duration QUIET_PERIOD = Duration.ofMillis(100);

  private ContextEventLoops() {}

  /** The resources of one context: its server's and its web clients' loops and connections. */
  public static ReactorResourceFactory resources() {
    ReactorResourceFactory factory = new ReactorResourceFactory();
    factory.setUseGlobalResources(false);
    factory.setShutdownQuietPeriod(QUIET_PERIOD);
    return factory;
  }
}
