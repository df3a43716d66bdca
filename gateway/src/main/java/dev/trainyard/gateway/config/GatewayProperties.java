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
 * @param webhook the key that encrypts webhook secrets and what endpoint URLs may target
 * @param flakyTests where the flaky-tests service listens ({@code TRAINYARD_FLAKY_TESTS_URL})
 */
@ConfigurationProperties("trainyard")
public record GatewayProperties(
    String adminToken,
    Bootstrap bootstrap,
    Duration replyTimeout,
    Integer replyPartitions,
    Long maxBodyBytes,
    Webhook webhook,
    FlakyTests flakyTests) {

  public static final long DEFAULT_MAX_BODY_BYTES = 20L * 1024 * 1024;

  public GatewayProperties {
    bootstrap = bootstrap == null ? new Bootstrap(null, null) : bootstrap;
    replyTimeout = replyTimeout == null ? Duration.ofMillis(4500) : replyTimeout;
    replyPartitions = replyPartitions == null ? 4 : replyPartitions;
    maxBodyBytes = maxBodyBytes == null ? DEFAULT_MAX_BODY_BYTES : maxBodyBytes;
    webhook = webhook == null ? new Webhook(null, null, null) : webhook;
    flakyTests = flakyTests == null ? new FlakyTests(null, null, null) : flakyTests;
  }

  /**
   * The flaky-tests service behind {@code /v1/flaky-tests/*}: its base URL (unset: those routes
   * answer 503), how long a call may take (uploads get {@code uploadTimeout}, they parse and
   * classify up to 100 MiB).
   */
  public record FlakyTests(String url, Duration timeout, Duration uploadTimeout) {
    public FlakyTests {
      timeout = timeout == null ? Duration.ofMillis(4500) : timeout;
      uploadTimeout = uploadTimeout == null ? Duration.ofMinutes(2) : uploadTimeout;
    }
  }

  /**
   * {@code TRAINYARD_WEBHOOK_KEY} (32 bytes, base64; shared with the dispatcher), {@code
   * TRAINYARD_WEBHOOK_ALLOW_LOOPBACK}, {@code TRAINYARD_WEBHOOK_ALLOW_HTTP}.
   */
  public record Webhook(String key, Boolean allowLoopback, Boolean allowHttp) {
    public Webhook {
      allowLoopback = allowLoopback != null && allowLoopback;
      allowHttp = allowHttp != null && allowHttp;
    }
  }

  /** {@code org} defaults to {@code default}. */
  public record Bootstrap(String org, String token) {
    public Bootstrap {
      org = org == null || org.isBlank() ? "default" : org;
    }
  }
}
