package dev.trainyard.worker.store;

import dev.trainyard.worker.engine.QueueAggregate;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The queues this worker wrote last, so that the next command of a queue it owns needs no read. A
 * stale entry (another worker wrote since: the partition moved away and came back) is caught three
 * ways: a write is checked against the stored version and fails; an answer that writes nothing is
 * checked against the stored versions before it is sent; and the queues of a partition this worker
 * is given or gives up are forgotten.
 *
 * <p>Bounded by the heap its queues hold, estimated per queue ({@link #weigh}), not by their
 * number: a queue of hundreds of waiting PRs holds many times what an idle one does. Past the
 * budget the least recently used queues go first; the one just put always stays.
 */
public final class QueueCache {
  /**
   * The heap a worker's cache may hold unless configured: 10,000 queues of a fleet measured about
   * 41 MB (bench/README, "A fleet of queues"), so this holds several such fleets in the chart's
   * default heap (75 % of 1 GiB).
   */
  public static final long DEFAULT_MAX_BYTES = 128L << 20;

  /** What a queue holds whatever its size: its key, settings, view and version's fields. */
  static final long QUEUE_BYTES = 2_500;

  /** What each PR, concluded PR, run, row version or remembered answer adds to it. */
  static final long ITEM_BYTES = 400;

  private final long maxBytes;
  private final LinkedHashMap<String, Held> entries = new LinkedHashMap<>(16, 0.75f, true);
  private long bytes;

  private record Held(StoredQueue queue, long bytes) {}

  public QueueCache(long maxBytes) {
    if (maxBytes <= 0) {
      throw new IllegalArgumentException(
          "TRAINYARD_WORKER_QUEUE_CACHE_SIZE must be above 0 bytes, not " + maxBytes);
    }
    this.maxBytes = maxBytes;
  }

  public synchronized Optional<StoredQueue> get(String id) {
    return Optional.ofNullable(entries.get(id)).map(Held::queue);
  }

  public void put(StoredQueue queue) {
    Held held = new Held(queue, weigh(queue));
    synchronized (this) {
      hold(held);
    }
  }

  private void hold(Held held) {
    Held replaced = entries.put(held.queue().id(), held);
    bytes += held.bytes() - (replaced == null ? 0 : replaced.bytes());
    Iterator<Held> eldest = entries.values().iterator();
    while (bytes > maxBytes && entries.size() > 1) {
      bytes -= eldest.next().bytes();
      eldest.remove();
    }
  }

  public synchronized void evict(String id) {
    Held held = entries.remove(id);
    if (held != null) {
      bytes -= held.bytes();
    }
  }

  public synchronized int size() {
    return entries.size();
  }

  /** The heap its queues hold, as {@link #weigh} estimates it. */
  public synchronized long bytes() {
    return bytes;
  }

  public synchronized void clear() {
    entries.clear();
    bytes = 0;
  }

  /** Forgets the queues whose ids {@code which} accepts. */
  public synchronized void forget(Predicate<String> which) {
    Iterator<Map.Entry<String, Held>> all = entries.entrySet().iterator();
    while (all.hasNext()) {
      Map.Entry<String, Held> entry = all.next();
      if (which.test(entry.getKey())) {
        bytes -= entry.getValue().bytes();
        all.remove();
      }
    }
  }

  /**
   * The heap {@code queue} holds, estimated from what grows in it (its PRs waiting and concluded,
   * runs, its view's rows, row versions and remembered answers) without walking their contents: a
   * put costs a few sizes, not an encoding. bench/README ("A fleet of queues") sets it beside the
   * heap measured.
   */
  public static long weigh(StoredQueue queue) {
    long items = queue.recent().size() + (long) queue.rowVersions().size();
    QueueAggregate aggregate = queue.aggregate();
    if (aggregate != null) {
      items +=
          aggregate.entries().size()
              + aggregate.concluded().size()
              + aggregate.targetsBeforeSubmit().size()
              + aggregate.runs().live().size()
              + aggregate.runs().finished().size()
              + aggregate.runs().unclaimed().size();
    }
    if (queue.view() != null && queue.view().enqueuedPullRequests() != null) {
      items += queue.view().enqueuedPullRequests().size();
    }
    return QUEUE_BYTES + ITEM_BYTES * items;
  }
}
