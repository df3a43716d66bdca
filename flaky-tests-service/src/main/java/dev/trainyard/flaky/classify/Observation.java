package dev.trainyard.flaky.classify;

import dev.trainyard.flaky.ingest.Outcome;
import java.time.Instant;

/** One run of one test case: where (commit, branch, PR) and how it ended. */
public record Observation(
    String commitSha, String branch, Long prNumber, Outcome outcome, Instant at) {

  public boolean failed() {
    return outcome == Outcome.FAILED;
  }

  public boolean passed() {
    return outcome == Outcome.PASSED || outcome == Outcome.PASSED_ON_RETRY;
  }
}
