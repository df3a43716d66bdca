package dev.trainyard.worker.processing;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.ListenerUtils;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * How the worker's batch listeners meet a failed poll: for as long as it takes, and never with
 * records of a partition it no longer holds. Spring Kafka's default for a batch listener retries
 * the batch in memory: it polls (with the consumer paused), and a rebalance in that poll may take
 * some of the batch's partitions away, but it calls the listener with the same records again — for
 * up to the 60 s after which a failing worker releases its partitions, deciding commands of queues
 * another worker now owns.
 *
 * <p>Here the poll is retried from the log instead: after a backoff (100 ms doubling to 5 s while
 * the same batch keeps failing), each partition of the batch this consumer still holds is sought
 * back to the batch's first offset in it, and nothing is committed. The next poll fetches what is
 * still this worker's; a partition revoked meanwhile is read by its new owner from the committed
 * offset.
 */
public final class RetryFromTheLog implements CommonErrorHandler {
  private static final Logger log = LoggerFactory.getLogger(RetryFromTheLog.class);
  static final long FIRST_BACKOFF_MS = 100;
  static final long MAX_BACKOFF_MS = 5_000;

  /** Per consumer thread: the first offsets of the batch that failed last, and how often. */
  private final ThreadLocal<Failing> failing = ThreadLocal.withInitial(Failing::new);

  private static final class Failing {
    Map<TopicPartition, Long> batch = Map.of();
    int times;
  }

  @Override
  public boolean seeksAfterHandling() {
    return true;
  }

  /** A batch that failed is not committed: it is read again, or by the next owner. */
  @Override
  public boolean isAckAfterHandle() {
    return false;
  }

  @Override
  public void handleBatch(
      Exception thrownException,
      ConsumerRecords<?, ?> data,
      Consumer<?, ?> consumer,
      MessageListenerContainer container,
      Runnable invokeListener) {
    Map<TopicPartition, Long> firsts = new HashMap<>();
    data.partitions().forEach(p -> firsts.put(p, data.records(p).get(0).offset()));
    long backoff = backoff(firsts);
    log.warn(
        "a poll of {} records failed; read again from the log in {} ms: {}",
        data.count(),
        backoff,
        thrownException.toString());
    try {
      ListenerUtils.stoppableSleep(container, backoff);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Set<TopicPartition> held = consumer.assignment();
    firsts.forEach(
        (partition, offset) -> {
          if (held.contains(partition)) {
            consumer.seek(partition, offset);
          }
        });
  }

  /** The wait before the batch is read again: doubling while the same batch keeps failing. */
  long backoff(Map<TopicPartition, Long> firsts) {
    Failing f = failing.get();
    f.times = firsts.equals(f.batch) ? f.times + 1 : 1;
    f.batch = Map.copyOf(firsts);
    long wait = FIRST_BACKOFF_MS << Math.min(f.times - 1, 16);
    return Math.min(wait, MAX_BACKOFF_MS);
  }
}
