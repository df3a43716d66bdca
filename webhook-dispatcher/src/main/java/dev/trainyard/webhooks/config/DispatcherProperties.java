package dev.trainyard.webhooks.config;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the dispatcher ({@code trainyard.webhook.*}; environment {@code
 * TRAINYARD_WEBHOOK_*}).
 *
 * @param key the 32-byte base64 key that encrypts endpoint secrets (shared with the gateway)
 * @param retrySchedule delays between attempts, e.g. {@code 5s,5m,30m,2h,5h,10h,10h}
 * @param allowLoopback whether endpoints may target loopback addresses
 * @param allowHttp whether endpoints may use plain {@code http}
 * @param timeout how long one attempt may take
 * @param maxInFlightPerEndpoint attempts in flight to one endpoint at once
 * @param disableAfter how long an endpoint may fail without a success before it is disabled
 * @param lease how long a claimed delivery stays with the instance that claimed it
 * @param publicUrl the gateway's base URL, for links in truncated payloads
 * @param logRetention how long ended deliveries stay in the log (default 30 days)
 */
@ConfigurationProperties("trainyard.webhook")
public record DispatcherProperties(
    String key,
    String retrySchedule,
    Boolean allowLoopback,
    Boolean allowHttp,
    Duration timeout,
    Integer maxInFlightPerEndpoint,
    Duration disableAfter,
    Duration lease,
    String publicUrl,
    Duration logRetention) {

  public DispatcherProperties {
    retrySchedule = retrySchedule == null ? "5s,5m,30m,2h,5h,10h,10h" : retrySchedule;
    allowLoopback = allowLoopback != null && allowLoopback;
    allowHttp = allowHttp != null && allowHttp;
    timeout = timeout == null ? Duration.ofSeconds(15) : timeout;
    maxInFlightPerEndpoint = maxInFlightPerEndpoint == null ? 8 : maxInFlightPerEndpoint;
    disableAfter = disableAfter == null ? Duration.ofDays(5) : disableAfter;
    lease = lease == null ? Duration.ofSeconds(60) : lease;
    publicUrl = publicUrl == null ? "http://localhost:8080" : publicUrl;
    logRetention = logRetention == null ? Duration.ofDays(30) : logRetention;
  }
}
