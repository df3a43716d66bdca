package dev.trainyard.worker.signals;

import dev.trainyard.common.queue.QueueKey;
import java.util.concurrent.CompletableFuture;

/** Re-reads a queue's pull requests from the source host on request. */
public interface ScmRefresher {
  /**
   * Completes once the resulting commands are on the queue's log; {@code checksChanged}: the host
   * said the target's required checks changed, so they are read again, not taken from a cache.
   */
  CompletableFuture<Void> refresh(QueueKey key, boolean checksChanged);

  /** Where no source host serves the queues: nothing to read. */
  ScmRefresher NONE = (key, checksChanged) -> CompletableFuture.completedFuture(null);
}
