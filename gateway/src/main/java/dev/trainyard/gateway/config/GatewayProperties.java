package dev.trainyard.gateway.config;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the gateway (environment: {@code TRAINYARD_ADMIN_TOKEN}, {@code
 * TRAINYARD_BOOTSTRAP_ORG}, {@code TRAINYARD_BOOTSTRAP_TOKEN}, …).
 *
 * @param adminToken the token of {@code /admin/v1/*}; admin endpoints are closed when unset
 * @param bootstrap the organization (and token) created at start when absent
 * @param replyTimeout how long a mutation waits for the worker before answering 503
 * @param replyPartitions partitions of the reply topic (every gateway reads all of them)
 * @param maxBodyBytes the request body limit (413 beyond it)
 */
@ConfigurationProperties("trainyard")
public record GatewayProperties(
    String adminToken,
    Bootstrap bootstrap,
    Duration replyTimeout,
    Integer replyPartitions,
    Long maxBodyBytes) {

  public static final long DEFAULT_MAX_BODY_BYTES = 20L * 1024 * 1024;

  public GatewayProperties {
    bootstrap = bootstrap == null ? new Bootstrap(null, null) : bootstrap;
    replyTimeout = replyTimeout == null ? Duration.ofMillis(4500) : replyTimeout;
    replyPartitions = replyPartitions == null ? 4 : replyPartitions;
    maxBodyBytes = maxBodyBytes == null ? DEFAULT_MAX_BODY_BYTES : maxBodyBytes;
  }

  /** {@code org} defaults to {@code default}. */
  public record Bootstrap(String org, String token) {
    public Bootstrap {
      org = org == null || org.isBlank() ? "default" : org;
    }
  }
}
