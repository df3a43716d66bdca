package dev.trainyard.webhooks.config;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Outbound network policy shared by every service that calls out ({@code trainyard.outbound.*};
 * environment {@code TRAINYARD_OUTBOUND_*}).
 *
 * @param allowedHosts host names the address guard does not check ({@code
 *     TRAINYARD_OUTBOUND_ALLOWED_HOSTS}, comma-separated): internal receivers an operator trusts
 */
@ConfigurationProperties("trainyard.outbound")
public record OutboundProperties(List<String> allowedHosts) {
  public OutboundProperties {
    allowedHosts = allowedHosts == null ? List.of() : List.copyOf(allowedHosts);
  }
}
