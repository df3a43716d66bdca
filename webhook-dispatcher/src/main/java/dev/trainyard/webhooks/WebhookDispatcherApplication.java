package dev.trainyard.webhooks;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;

/** The webhook dispatcher as a service of its own (Kubernetes); the standalone embeds it. */
@SpringBootApplication
public class WebhookDispatcherApplication {
  public static void main(String[] args) {
    // its settings live in application-dispatcher.properties, as when the standalone composes it
    new SpringApplicationBuilder(WebhookDispatcherApplication.class)
        .profiles("dispatcher")
        .run(args);
  }
}
