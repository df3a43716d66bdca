package dev.trainyard.flaky;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;

/** The flaky-tests service as a service of its own (Kubernetes); the standalone embeds it. */
@SpringBootApplication
public class FlakyTestsApplication {
  public static void main(String[] args) {
    // its settings live in application-flaky.properties, as when the standalone composes it
    new SpringApplicationBuilder(FlakyTestsApplication.class).profiles("flaky").run(args);
  }
}
