package dev.trainyard.worker.store;

/**
 * A queue's next version would be larger than one queue document may be ({@link
 * QueueStore#DEFAULT_MAX_DOCUMENT_BYTES}, half of MongoDB's 16 MiB limit) and larger than the
 * version it replaces. The command that grew it is refused, not stored: the queue stays as it was.
 */
public final class QueueTooLarge extends RuntimeException {
  private final long bytes;
  private final long limit;

  public QueueTooLarge(String queueId, long bytes, long limit) {
    super("queue " + queueId + " would be stored in " + bytes + " bytes, over its " + limit);
    this.bytes = bytes;
    this.limit = limit;
  }

  /** The sentence its client reads (a 429): what grew too large, and what makes room again. */
  public String reason() {
    return "the queue's stored state would grow to "
        + bytes
        + " bytes, over the "
        + limit
        + " bytes one queue may hold; land or cancel pull requests to make room";
  }
}
