package dev.trainyard.common.queue;

/** The state of one submitted pull request (API.md §2). */
public enum PrState implements WireEnum {
  NOT_READY,
  PENDING,
  TESTING,
  TESTS_PASSED,
  MERGED,
  FAILED,
  CANCELLED,
  PENDING_FAILURE;

  /** Merged, failed and cancelled entries have left the queue. */
  public boolean isFinal() {
    return this == MERGED || this == FAILED || this == CANCELLED;
  }
}
