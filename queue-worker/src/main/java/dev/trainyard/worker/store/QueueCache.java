package dev.trainyard.worker.store;

import java.util.Collections;
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
 */
public final class QueueCache {
  /** How many queues a worker keeps. */
  public static final int DEFAULT_CAPACITY = 10_000;

  private final Map<String, StoredQueue> entries;

  public QueueCache(int capacity) {
    this.entries =
        Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, true) {
              @Override
              protected boolean removeEldestEntry(Map.Entry<String, StoredQueue> eldest) {
                return size() > capacity;
              }
            });
  }

  public Optional<StoredQueue> get(String id) {
    return Optional.ofNullable(entries.get(id));
  }

  public void put(StoredQueue queue) {
    entries.put(queue.id(), queue);
  }

  public void evict(String id) {
    entries.remove(id);
  }

  public int size() {
    return entries.size();
  }

  public void clear() {
    entries.clear();
  }

  /** Forgets the queues whose ids {@code which} accepts. */
  public void forget(Predicate<String> which) {
    synchronized (entries) {
      entries.keySet().removeIf(which);
    }
  }
}
