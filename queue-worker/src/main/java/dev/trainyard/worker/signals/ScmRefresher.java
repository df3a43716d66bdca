package dev.trainyard.worker.signals;

import dev.trainyard.common.queue.QueueKey;
import java.util.concurrent.CompletableFuture;

/** Re-reads a queue's pull requests from the source host on request. */
public interface ScmRefresher {
  /** Completes once the resulting commands are on the queue's log. */
  CompletableFuture<Void> refresh(QueueKey key);

  /** Where no source host serves the queues: nothing to read. */
  ScmRefresher NONE = key -> CompletableFuture.completedFuture(null);
}
