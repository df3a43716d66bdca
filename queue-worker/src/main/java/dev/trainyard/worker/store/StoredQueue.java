package dev.trainyard.worker.store;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.trainyard.common.view.PullRequestRow;
import dev.trainyard.common.view.QueueView;
import dev.trainyard.worker.engine.QueueAggregate;
import java.time.Instant;
import java.util.List;

/**
 * The aggregate document of one queue. {@code aggregate} and {@code view} are null while the queue
 * does not exist (never created, or deleted: the document stays as a tombstone so that its version
 * and recent command ids survive). {@code rows} and {@code events} are the outbox.
 */
public record StoredQueue(
    @JsonProperty("_id") String id,
    String org,
    long version,
    QueueAggregate aggregate,
    QueueView view,
    Instant nextDeadline,
    List<RecentCommand> recent,
    List<PullRequestRow> rows,
    List<OutboxEvent> events) {

  /** How many applied command ids each queue remembers for de-duplication. */
  public static final int RECENT_COMMANDS = 500;

  public StoredQueue {
    recent = List.copyOf(recent);
    rows = List.copyOf(rows);
    events = List.copyOf(events);
  }

  public static StoredQueue absent(String id, String org) {
    return new StoredQueue(id, org, 0, null, null, null, List.of(), List.of(), List.of());
  }

  public boolean hasApplied(String commandId) {
    return recent.stream().anyMatch(r -> r.commandId().equals(commandId));
  }

  public boolean hasOutbox() {
    return !rows.isEmpty() || !events.isEmpty();
  }
}
