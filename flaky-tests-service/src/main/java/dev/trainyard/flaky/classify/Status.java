package dev.trainyard.flaky.classify;

import java.time.Instant;

/**
 * What the classifier concluded: the status, a sentence with its evidence, and since when the test
 * has been in it ({@code status.timestamp}).
 */
public record Status(Health value, String reason, Instant since) {
  public static Status healthy(Instant since) {
    return new Status(Health.HEALTHY, "no failures in the recent runs", since);
  }
}
