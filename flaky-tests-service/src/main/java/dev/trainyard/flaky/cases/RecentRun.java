package dev.trainyard.flaky.cases;

import dev.trainyard.flaky.classify.Observation;
import dev.trainyard.flaky.ingest.Outcome;
import java.time.Instant;

/**
 * One run of a test case as its document keeps it; {@code uploadId} makes adding it idempotent,
 * {@code commitAt} orders it among target-branch runs, {@code configuration} is what its report
 * said of where it ran ({@link Observation}; null: nothing).
 */
public record RecentRun(
    String uploadId,
    String commitSha,
    String branch,
    Long prNumber,
    Outcome outcome,
    Instant at,
    Instant commitAt,
    String configuration) {

  /** A run whose report named no configuration. */
  public RecentRun(
      String uploadId,
      String commitSha,
      String branch,
      Long prNumber,
      Outcome outcome,
      Instant at,
      Instant commitAt) {
    this(uploadId, commitSha, branch, prNumber, outcome, at, commitAt, null);
  }

  /** A run whose commit's place is its upload time. */
  public RecentRun(
      String uploadId,
      String commitSha,
      String branch,
      Long prNumber,
      Outcome outcome,
      Instant at) {
    this(uploadId, commitSha, branch, prNumber, outcome, at, at);
  }

  public Observation observation() {
    return new Observation(commitSha, branch, prNumber, outcome, at, commitAt, configuration);
  }
}
