package dev.trainyard.worker.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.SubmittedQueue;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The cache holds what its budget of bytes allows, as it estimates each queue: a queue of many PRs
 * weighs more than an idle one and pushes out more of the least recently used, and what it forgets
 * no longer counts.
 */
class QueueCacheTest {
  private static final Instant NOW = Instant.parse("2026-12-02T10:00:00Z");
  private static final long IDLE = QueueCache.weigh(StoredQueue.absent("x", "org"));

  @Test
  void forgettingTheQueuesOfMovedPartitionsKeepsTheOthersAndTheirBytes() {
    QueueCache cache = new QueueCache(10 * IDLE);
    for (String id : Set.of("a", "b", "c")) {
      cache.put(StoredQueue.absent(id, "org"));
    }
    cache.forget(id -> id.equals("b"));
    assertThat(cache.get("a")).isPresent();
    assertThat(cache.get("b")).isEmpty();
    assertThat(cache.get("c")).isPresent();
    assertThat(cache.size()).isEqualTo(2);
    assertThat(cache.bytes()).isEqualTo(2 * IDLE);
    cache.evict("a");
    assertThat(cache.bytes()).isEqualTo(IDLE);
  }

  @Test
  void theLeastRecentlyUsedQueueGoesPastTheBudget() {
    QueueCache cache = new QueueCache(2 * IDLE);
    cache.put(StoredQueue.absent("a", "org"));
    cache.put(StoredQueue.absent("b", "org"));
    cache.get("a");
    cache.put(StoredQueue.absent("c", "org"));
    assertThat(cache.get("b")).isEmpty();
    assertThat(cache.get("a")).isPresent();
    assertThat(cache.bytes()).isEqualTo(2 * IDLE);
  }

  @Test
  void aQueueOfManyPullRequestsWeighsMoreAndPushesOutMoreOfTheOthers() {
    StoredQueue busy = stored("busy", 40);
    long heavy = QueueCache.weigh(busy);
    assertThat(heavy).isGreaterThan(QueueCache.weigh(stored("quiet", 1))).isGreaterThan(IDLE);
    assertThat(heavy - QueueCache.weigh(stored("busy", 39)))
        .as("each waiting PR adds its entry, its row version and its listing row")
        .isEqualTo(3 * QueueCache.ITEM_BYTES);

    QueueCache cache = new QueueCache(heavy + 3 * IDLE);
    for (String id : List.of("a", "b", "c", "d", "e")) {
      cache.put(StoredQueue.absent(id, "org"));
    }
    assertThat(cache.size()).as("five idle queues fit").isEqualTo(5);
    cache.put(busy);
    assertThat(cache.get(busy.id())).isPresent();
    assertThat(cache.get("a")).isEmpty();
    assertThat(cache.get("b")).isEmpty();
    assertThat(cache.size()).isEqualTo(4);
    assertThat(cache.bytes()).isEqualTo(heavy + 3 * IDLE);

    cache.put(stored("busy", 1)); // the same queue, smaller now: its bytes are replaced
    assertThat(cache.bytes()).isEqualTo(QueueCache.weigh(stored("busy", 1)) + 3 * IDLE);
  }

  @Test
  void aQueueOverTheWholeBudgetIsStillHeldAlone() {
    QueueCache cache = new QueueCache(IDLE);
    cache.put(StoredQueue.absent("a", "org"));
    StoredQueue busy = stored("busy", 10);
    cache.put(busy);
    assertThat(cache.get(busy.id())).isPresent();
    assertThat(cache.size()).isEqualTo(1);
  }

  @Test
  void aBudgetOfNoBytesIsRefusedNamingItsSetting() {
    assertThatThrownBy(() -> new QueueCache(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("TRAINYARD_WORKER_QUEUE_CACHE_SIZE");
  }

  /** A queue of {@code prs} waiting PRs, each with its row version and listing row. */
  private static StoredQueue stored(String name, int prs) {
    QueueKey key = QueueKey.of("org", "git.example", "org", name, "main");
    QueueAggregate queue = SubmittedQueue.submitted(key, NOW);
    for (long pr = 2; pr <= prs; pr++) {
      queue = SubmittedQueue.andSubmitted(queue, pr, NOW);
    }
    Map<String, Long> rows = new HashMap<>();
    queue.entries().forEach(e -> rows.put(e.id(), 1L));
    return StoredQueues.of("org", queue, prs, rows, NOW);
  }
}
