package dev.trainyard.worker.engine;

/** Where a test run is. The first five are live; the last four are final. */
public enum RunState {
  /** A bisection run waiting for one of the queue's {@code bisectionConcurrency} slots. */
  WAITING,
  /** Started: its branch is being built on top of the run ahead (or the target). */
  BUILDING,
  /** Its branch exists; CI is testing it. */
  TESTING,
  /** Every required status is green; it lands once everything ahead has landed. */
  PASSED,
  /**
   * Red while runs ahead are still undecided: the failure may be theirs ({@code pending_failure}).
   */
  RED,
  SUCCEEDED,
  FAILED,
  CANCELLED,
  /** A bisection run that passed: its PRs are innocent of the batch's failure and queue again. */
  CLEARED;

  public boolean isFinal() {
    return this == SUCCEEDED || this == FAILED || this == CANCELLED || this == CLEARED;
  }
}
