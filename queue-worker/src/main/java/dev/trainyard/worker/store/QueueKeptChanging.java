package dev.trainyard.worker.store;

/**
 * A queue that another writer replaced on each of a load's attempts: transient (the other writer is
 * a worker that held the partition until a moment ago, or one that has not noticed it lost it), so
 * the poll is retried with backoff and never made dead.
 */
public final class QueueKeptChanging extends RuntimeException {
  public QueueKeptChanging(String queueId, int attempts) {
    super(
        "queue "
            + queueId
            + " was replaced by another writer on each of "
            + attempts
            + " reads; will retry");
  }
}
