package dev.trainyard.flaky.ingest;

/** How one test case ended in one run. */
public enum Outcome {
  PASSED,
  /** It failed, then passed when the runner retried it (Surefire's {@code flakyFailure}). */
  PASSED_ON_RETRY,
  FAILED,
  SKIPPED
}
