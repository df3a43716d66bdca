package dev.trainyard.webhooks.delivery;

import java.time.Duration;
import java.time.InstantSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Keeps the delivery log to {@code TRAINYARD_WEBHOOK_LOG_RETENTION} (default 30 days): every
 * interval, deliveries that ended before then are removed. A job rather than a TTL index: the log's
 * timestamps are RFC 3339 strings, which a TTL index cannot read, and a TTL index would also remove
 * a delivery still waiting in its retry schedule. Every dispatcher replica may run it; removing is
 * idempotent.
 */
public class LogRetention {
  private static final Logger log = LoggerFactory.getLogger(LogRetention.class);
  private final DeliveryStore deliveries;
  private final InstantSource clock;
  private final Duration retention;

  public LogRetention(DeliveryStore deliveries, InstantSource clock, Duration retention) {
    this.deliveries = deliveries;
    this.clock = clock;
    this.retention = retention;
  }

  @Scheduled(
      fixedDelayString = "${trainyard.webhook.log-prune-interval:1h}",
      initialDelayString = "${trainyard.webhook.log-prune-interval:1h}")
  public void prune() {
    try {
      long removed = deliveries.prune(clock.instant().minus(retention));
      if (removed > 0) {
        log.info("removed {} deliveries older than {} from the log", removed, retention);
      }
    } catch (RuntimeException e) {
      log.warn("could not prune the delivery log; the next round retries: {}", e.toString());
    }
  }
}
