package dev.trainyard.gateway;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;

/** The gateway as a service of its own (Kubernetes); the standalone embeds it. */
@SpringBootApplication
public class GatewayApplication {
  public static void main(String[] args) {
    // its settings live in application-gateway.properties, as when the standalone composes it
    new SpringApplicationBuilder(GatewayApplication.class).profiles("gateway").run(args);
  }
}
