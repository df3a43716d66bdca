package dev.trainyard.webhooks;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The webhook dispatcher as a service of its own (Kubernetes); the standalone embeds it. */
@SpringBootApplication
public class WebhookDispatcherApplication {
  public static void main(String[] args) {
    SpringApplication.run(WebhookDispatcherApplication.class, args);
  }
}
