package dev.trainyard.worker.engine;

import java.time.Duration;
import java.time.Instant;

/**
 * What the flaky-tests service's uploads for a run's head said of its failed tests (SCHEDULING.md
 * "Flake-aware failures"): every failed test quarantined or excused by a flake on record, or at
 * least one real failure among them. One real failure in any upload for the commit (a CI matrix
 * uploads several) decides.
 */
public enum TestFailures {
  /**
   * Tests failed, and each was quarantined or excused by a flake on record when the upload was
   * classified.
   */
  FLAKY_ONLY,
  /** At least one failed test is neither quarantined nor excused by a flake on record. */
  REAL;

  /**
   * How long a red run of a queue whose CI uploads test results waits for those of its head before
   * it fails as usual: the upload reaches the queue through the flaky-tests service and its events,
   * the status directly, so the status often arrives first.
   */
  public static final Duration GRACE = Duration.ofSeconds(60);

  /**
   * How long an upload keeps a queue waiting for results: a queue whose CI stopped uploading (or
   * whose repository only had uploads of other branches) stops delaying its red runs after this.
   */
  public static final Duration UPLOADS_REMEMBERED = Duration.ofDays(1);

  /** Whether the queue's CI uploads test results: the last upload for it is recent. */
  static boolean uploadsResults(RunHistory history, Instant now) {
    Instant last = history.lastTestResultsAt();
    return last != null && last.plus(UPLOADS_REMEMBERED).isAfter(now);
  }

  /** What is known after one more upload of {@code failed} failed tests, {@code unexcused} real. */
  static TestFailures after(TestFailures known, int failed, int unexcused) {
    if (known == REAL || unexcused > 0) {
      return REAL;
    }
    return failed > 0 ? FLAKY_ONLY : known;
  }
}
