package dev.trainyard.worker.store;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.trainyard.common.view.EntryTags;
import dev.trainyard.common.view.QueueView;
import dev.trainyard.worker.engine.QueueAggregate;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The aggregate document of one queue. {@code aggregate} and {@code view} are null while the queue
 * does not exist (never created, or deleted: the document stays as a tombstone so that its version
 * survives). {@code recent} is read from documents written before answers had a collection of their
 * own ({@link AnswerStore}) and is empty in every version written since. {@code outboxId} names the
 * {@link Outbox} written with this version while it may still be unpublished; {@code rowVersions}
 * maps each entry still in the aggregate to the version of its current history row; {@code
 * activeEntries} lets pollers find the queues that hold pull requests, {@code effectsPending} the
 * queues whose state asks for effects. In the store, the entries live in documents of their own
 * that {@code entryTags} name (ADR 0019, {@link #header()}). {@code waitingSince} is when the
 * queue's ready pull requests began to wait without one concluding (null: none waits, or the queue
 * may not move: paused, frozen, outside its merge windows), which {@link QueueStalls} watches.
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
    boolean effectsPending,
    EntryTags entryTags,
    Instant waitingSince) {

  /**
   * How long the answer to a command is remembered ({@link AnswerStore}): a client retrying under
   * an {@code Idempotency-Key} re-sends its command id within 24 h, and the command topic keeps no
   * more; a command sent longer ago is never applied.
   */
  public static final Duration RECENT_WINDOW = Duration.ofHours(24);

  public StoredQueue {
    recent = List.copyOf(recent);
    rowVersions = rowVersions == null ? Map.of() : Map.copyOf(rowVersions);
    entryTags = entryTags == null ? EntryTags.NONE : entryTags;
  }

  public static StoredQueue absent(String id, String org) {
    return new StoredQueue(
        id, org, 0, null, null, null, List.of(), null, Map.of(), 0, false, EntryTags.NONE, null);
  }

  /** The command with this id, when a document of before {@link AnswerStore} remembers it. */
  public Optional<RecentCommand> handled(String commandId) {
    return recent.stream().filter(r -> r.commandId().equals(commandId)).findFirst();
  }

  /** This version with its outbox known to be published. */
  public StoredQueue published() {
    return with(null, entryTags);
  }

  /** This version with its entries kept in the entry documents {@code tags} name. */
  public StoredQueue withEntryTags(EntryTags tags) {
    return with(outboxId, tags);
  }

  private StoredQueue with(String outbox, EntryTags tags) {
    return new StoredQueue(
        id,
        org,
        version,
        aggregate,
        view,
        nextDeadline,
        recent,
        outbox,
        rowVersions,
        activeEntries,
        effectsPending,
        tags,
        waitingSince);
  }

  /**
   * What the queue document holds of this version: no entries, no enqueued pull requests in the
   * view, and the row versions of concluded entries only; the rest is in its entry documents.
   */
  public StoredQueue header() {
    Map<String, Long> concludedRows = new HashMap<>(rowVersions);
    if (aggregate != null) {
      aggregate.entries().forEach(e -> concludedRows.remove(e.id()));
    }
    return new StoredQueue(
        id,
        org,
        version,
        aggregate == null ? null : aggregate.withStoredEntries(List.of()),
        view == null
            ? null
            : new QueueView(
                view.state(),
                view.branch(),
                view.settings(),
                view.freeze(),
                List.of(),
                view.forecast()),
        nextDeadline,
        recent,
        outboxId,
        concludedRows,
        activeEntries,
        effectsPending,
        entryTags,
        waitingSince);
  }
}
