package dev.trainyard.flaky.ingest;

/** How one test case ended in one run. */
public enum Outcome {
  PASSED,
  /** It failed, then passed when the runner retried it (Surefire's {@code flakyFailure}). */
  PASSED_ON_RETRY,
  FAILED,
  SKIPPED,
  /**
   * It failed in an upload that reads as an infrastructure outage ({@link Outage}): kept in the
   * test's history, never evidence that it is flaky or broken. Only histories hold it; the run log
   * keeps the failure as reported.
   */
  FAILED_IN_OUTAGE
}
