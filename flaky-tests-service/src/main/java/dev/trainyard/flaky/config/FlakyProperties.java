package dev.trainyard.flaky.config;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the flaky-tests service ({@code trainyard.flaky.*}; environment {@code
 * TRAINYARD_FLAKY_*}).
 *
 * @param tokenKey the secret that signs page tokens (any string of at least 32 characters; every
 *     replica needs the same one)
 * @param publicUrl the gateway's base URL, for {@code html_url}
 * @param retention how long per-run results are kept (a TTL index removes older ones)
 * @param internalKey the secret the gateway signs each forwarded request with (at least 32
 *     characters; the gateway reads the same property)
 */
@ConfigurationProperties("trainyard.flaky")
public record FlakyProperties(
    String tokenKey, String publicUrl, Duration retention, String internalKey) {
  public FlakyProperties {
    publicUrl = publicUrl == null ? "http://localhost:8080" : publicUrl;
    retention = retention == null ? Duration.ofDays(30) : retention;
  }
}
