package dev.trainyard.worker.store;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.trainyard.common.view.QueueView;
import dev.trainyard.worker.engine.QueueAggregate;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The aggregate document of one queue. {@code aggregate} and {@code view} are null while the queue
 * does not exist (never created, or deleted: the document stays as a tombstone so that its version
 * and recent command ids survive). {@code outboxId} names the {@link Outbox} written with this
 * version while it may still be unpublished; {@code rowVersions} maps each entry still in the
 * aggregate to the version of its current history row; {@code activeEntries} lets pollers find the
 * queues that hold pull requests, {@code effectsPending} the queues whose state asks for effects.
 */
public record StoredQueue(
    @JsonProperty("_id") String id,
    String org,
    long version,
    QueueAggregate aggregate,
    QueueView view,
    Instant nextDeadline,
    List<RecentCommand> recent,
    String outboxId,
    Map<String, Long> rowVersions,
    int activeEntries,
    boolean effectsPending) {

  /** How many applied command ids each queue remembers for de-duplication. */
  public static final int RECENT_COMMANDS = 128;

  public StoredQueue {
    recent = List.copyOf(recent);
    rowVersions = rowVersions == null ? Map.of() : Map.copyOf(rowVersions);
  }

  public static StoredQueue absent(String id, String org) {
    return new StoredQueue(id, org, 0, null, null, null, List.of(), null, Map.of(), 0, false);
  }

  public boolean hasApplied(String commandId) {
    return recent.stream().anyMatch(r -> r.commandId().equals(commandId));
  }

  /** This version with its outbox known to be published. */
  public StoredQueue published() {
    return new StoredQueue(
        id,
        org,
        version,
        aggregate,
        view,
        nextDeadline,
        recent,
        null,
        rowVersions,
        activeEntries,
        effectsPending);
  }
}
