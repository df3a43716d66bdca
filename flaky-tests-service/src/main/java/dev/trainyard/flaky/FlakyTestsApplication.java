package dev.trainyard.flaky;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The flaky-tests service as a service of its own (Kubernetes); the standalone embeds it. */
@SpringBootApplication
public class FlakyTestsApplication {
  public static void main(String[] args) {
    SpringApplication.run(FlakyTestsApplication.class, args);
  }
}
