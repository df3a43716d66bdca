package dev.trainyard.worker.engine;

/** Where a test run is. The first four are live (in the chain); the last three are final. */
public enum RunState {
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
  CANCELLED;

  public boolean isFinal() {
    return this == SUCCEEDED || this == FAILED || this == CANCELLED;
  }
}
