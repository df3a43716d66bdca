package dev.trainyard.worker;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The queue worker as a service of its own (Kubernetes); the standalone embeds it. */
@SpringBootApplication
public class WorkerApplication {
  public static void main(String[] args) {
    SpringApplication.run(WorkerApplication.class, args);
  }
}
