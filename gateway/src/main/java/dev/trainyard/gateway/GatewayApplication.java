package dev.trainyard.gateway;

import dev.trainyard.common.boot.Rule;
import dev.trainyard.common.boot.ServiceMain;
import dev.trainyard.common.boot.Setting;
import java.util.List;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The gateway as a service of its own (Kubernetes); the standalone embeds it. */
@SpringBootApplication
public class GatewayApplication {
  /** The settings of API.md §6 the gateway reads, checked before it starts. */
  static final List<Setting> SETTINGS =
      List.of(
          Setting.optional("server.port", Rule.PORT),
          Setting.optional("trainyard.admin-token", Rule.TEXT),
          Setting.optional("trainyard.webhook.key", Rule.KEY_32_BYTES),
          Setting.optional("trainyard.webhook.previous-keys", Rule.TEXT),
          Setting.optional("trainyard.webhook.allow-loopback", Rule.BOOLEAN),
          Setting.optional("trainyard.git.allow-loopback", Rule.BOOLEAN),
          Setting.optional("trainyard.github.webhook-secret", Rule.TEXT),
          Setting.optional("trainyard.github.webhook-previous-secret", Rule.TEXT),
          Setting.optional("trainyard.github.webhook-previous-secret-until", Rule.INSTANT),
          Setting.optional("trainyard.github.host", Rule.TEXT),
          Setting.optional("trainyard.flaky.internal-key", Rule.SECRET),
          Setting.optional("trainyard.rate-limit-per-org", Rule.COUNT),
          Setting.optional("trainyard.reply-timeout", Rule.DURATION));

  public static void main(String[] args) {
    // its defaults live in application-gateway.properties, as when the standalone composes it
    ServiceMain.run(GatewayApplication.class, "gateway", SETTINGS, args);
  }
}
