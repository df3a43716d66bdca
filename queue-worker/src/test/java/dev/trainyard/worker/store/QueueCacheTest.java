package dev.trainyard.worker.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class QueueCacheTest {
  @Test
  void forgettingTheQueuesOfMovedPartitionsKeepsTheOthers() {
    QueueCache cache = new QueueCache(10);
    for (String id : Set.of("a", "b", "c")) {
      cache.put(StoredQueue.absent(id, "org"));
    }
    cache.forget(id -> id.equals("b"));
    assertThat(cache.get("a")).isPresent();
    assertThat(cache.get("b")).isEmpty();
    assertThat(cache.get("c")).isPresent();
    assertThat(cache.size()).isEqualTo(2);
  }

  @Test
  void theLeastRecentlyUsedQueueGoesPastTheCapacity() {
    QueueCache cache = new QueueCache(2);
    cache.put(StoredQueue.absent("a", "org"));
    cache.put(StoredQueue.absent("b", "org"));
    cache.get("a");
    cache.put(StoredQueue.absent("c", "org"));
    assertThat(cache.get("b")).isEmpty();
    assertThat(cache.get("a")).isPresent();
  }
}
