package dev.trainyard.worker.store;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.trainyard.common.view.EntryTags;
import dev.trainyard.common.view.QueueView;
import dev.trainyard.worker.engine.QueueAggregate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The aggregate document of one queue. {@code aggregate} and {@code view} are null while the queue
 * does not exist (never created, or deleted: the document stays as a tombstone so that its version
 * and recent command ids survive). {@code outboxId} names the {@link Outbox} written with this
 * version while it may still be unpublished; {@code rowVersions} maps each entry still in the
 * aggregate to the version of its current history row; {@code activeEntries} lets pollers find the
 * queues that hold pull requests, {@code effectsPending} the queues whose state asks for effects.
 * In the store, the entries live in documents of their own that {@code entryTags} name (ADR 0019,
 * {@link #header()}).
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
    EntryTags entryTags) {

  /**
   * Applied command ids are remembered for {@link #RECENT_WINDOW} (a client retrying under an
   * {@code Idempotency-Key} re-sends its command id within 24 h), and the newest {@link
   * #RECENT_FLOOR} whatever their age; at most {@link #RECENT_MAX}, which bounds the document. The
   * broker's own redelivery horizon is one poll ({@code max-poll-records} 100 &lt; the floor).
   */
  public static final Duration RECENT_WINDOW = Duration.ofHours(24);

  public static final int RECENT_FLOOR = 128;
  public static final int RECENT_MAX = 1_024;

  public StoredQueue {
    recent = List.copyOf(recent);
    rowVersions = rowVersions == null ? Map.of() : Map.copyOf(rowVersions);
    entryTags = entryTags == null ? EntryTags.NONE : entryTags;
  }

  public static StoredQueue absent(String id, String org) {
    return new StoredQueue(
        id, org, 0, null, null, null, List.of(), null, Map.of(), 0, false, EntryTags.NONE);
  }

  /**
   * The ids to remember after a version applied {@code applied} (newest first) at {@code now}:
   * those and the ones remembered before, by {@link #RECENT_WINDOW}, {@link #RECENT_FLOOR} and
   * {@link #RECENT_MAX}.
   */
  public List<RecentCommand> rememberAfter(List<RecentCommand> applied, Instant now) {
    Instant horizon = now.minus(RECENT_WINDOW);
    List<RecentCommand> kept = new ArrayList<>(applied);
    for (RecentCommand r : recent) {
      boolean young = r.appliedAt() == null || r.appliedAt().isAfter(horizon);
      if (kept.size() >= RECENT_MAX || (kept.size() >= RECENT_FLOOR && !young)) {
        break;
      }
      kept.add(r);
    }
    return kept.subList(0, Math.min(kept.size(), RECENT_MAX));
  }

  /** The command with this id, when the queue remembers handling it. */
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
        tags);
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
        entryTags);
  }
}
