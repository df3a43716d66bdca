package dev.trainyard.worker;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;

/** The queue worker as a service of its own (Kubernetes); the standalone embeds it. */
@SpringBootApplication
public class WorkerApplication {
  public static void main(String[] args) {
    // its settings live in application-worker.properties, as when the standalone composes it
    new SpringApplicationBuilder(WorkerApplication.class).profiles("worker").run(args);
  }
}
