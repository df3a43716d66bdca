package dev.trainyard.webhooks;

import dev.trainyard.common.boot.Rule;
import dev.trainyard.common.boot.ServiceMain;
import dev.trainyard.common.boot.Setting;
import java.util.List;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The webhook dispatcher as a service of its own (Kubernetes); the standalone embeds it. */
@SpringBootApplication
public class WebhookDispatcherApplication {
  /** The settings of API.md §6 the dispatcher reads, checked before it starts. */
  static final List<Setting> SETTINGS =
      List.of(
          Setting.required("trainyard.webhook.key", Rule.KEY_32_BYTES),
          Setting.optional("trainyard.webhook.previous-keys", Rule.TEXT),
          Setting.optional("trainyard.webhook.allow-loopback", Rule.BOOLEAN),
          Setting.optional("trainyard.webhook.allow-http", Rule.BOOLEAN),
          Setting.optional("trainyard.webhook.timeout", Rule.DURATION),
          Setting.optional("trainyard.webhook.disable-after", Rule.DURATION));

  public static void main(String[] args) {
    // its defaults live in application-dispatcher.properties, as when the standalone composes it
    ServiceMain.run(WebhookDispatcherApplication.class, "dispatcher", SETTINGS, args);
  }
}
