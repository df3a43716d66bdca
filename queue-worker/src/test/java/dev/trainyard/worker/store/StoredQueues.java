package dev.trainyard.worker.store;

import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.projection.Views;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Stored versions of queue states, for the tests of what reads and writes them. */
public final class StoredQueues {
  private StoredQueues() {}

  /**
   * {@code state} of organization {@code org} as its worker stores it at {@code version}: its view
   * as of {@code now}, its entries' rows at the versions {@code rows} names, nothing to publish.
   */
  public static StoredQueue of(
      String org, QueueAggregate state, long version, Map<String, Long> rows, Instant now) {
    return new StoredQueue(
        state.key().id(),
        org,
        version,
        state,
        Views.queue(state, now),
        null,
        List.of(),
        null,
        rows,
        state.entries().size(),
        false,
        null,
        null);
  }
}
