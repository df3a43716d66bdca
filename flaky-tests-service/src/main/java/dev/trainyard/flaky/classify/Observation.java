package dev.trainyard.flaky.classify;

import dev.trainyard.flaky.ingest.Outcome;
import java.time.Instant;

/**
 * One run of one test case: where (commit, branch, PR), how it ended, when it was uploaded ({@code
 * at}, what the 7-day window reads) and where its commit stands ({@code commitAt}: when the commit
 * was made, as the git adapter knows it, else when the run started by its report, else {@code at};
 * what orders target-branch runs, so a slow pipeline of an older commit is not the newest run).
 */
public record Observation(
    String commitSha,
    String branch,
    Long prNumber,
    Outcome outcome,
    Instant at,
    Instant commitAt,
    String configuration) {

  /** A run whose report named no configuration. */
  public Observation(
      String commitSha,
      String branch,
      Long prNumber,
      Outcome outcome,
      Instant at,
      Instant commitAt) {
    this(commitSha, branch, prNumber, outcome, at, commitAt, null);
  }

  /** A run whose commit's place is not known apart from its upload time. */
  public Observation(String commitSha, String branch, Long prNumber, Outcome outcome, Instant at) {
    this(commitSha, branch, prNumber, outcome, at, at);
  }

  /** This run placed where {@code other} (a run of the same commit) is. */
  Observation withCommitAt(Observation other) {
    return new Observation(
        commitSha, branch, prNumber, outcome, other.at(), other.commitAt(), configuration);
  }

  /**
   * The commit in the configuration it ran in: runs of one commit in two configurations (a CI
   * matrix uploading a report per job without a {@code variant}) are never retries of each other.
   */
  public String commitIn() {
    return configuration == null ? commitSha : commitSha + "\u0000" + configuration;
  }

  /** Whether the run is evidence: it ran, and not in an outage ({@code Outcome}). */
  public boolean evidence() {
    return outcome != Outcome.SKIPPED && outcome != Outcome.FAILED_IN_OUTAGE;
  }

  public boolean failed() {
    return outcome == Outcome.FAILED;
  }

  public boolean passed() {
    return outcome == Outcome.PASSED || outcome == Outcome.PASSED_ON_RETRY;
  }
}
