package dev.trainyard.worker.signals;

import dev.trainyard.common.command.CommandEnvelope;
import dev.trainyard.worker.processing.CommandListener;
import dev.trainyard.worker.processing.Fence;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * Which queues this worker instance writes: those whose key hashes to a partition it holds — and
 * none while its hold is in doubt. A worker cut off from the group coordinator (a long pause, a
 * network partition) still lists the partitions it had until it notices; by then the coordinator
 * may have given them to another worker. So the sweeps (ticks, effects, source-host polls) take the
 * partitions as held only while every consumer's last heartbeat is recent ({@link
 * #CONFIRMED_WITHIN}: two heartbeats of 3 s, well inside the 10 s session).
 *
 * <p>It also keeps each held partition's ownership epoch: the consumer-group generation in which
 * this worker took it (a generation only grows, and a partition that moves is taken in a later
 * one). An effect is started only for a queue whose partition has an epoch here, and its result
 * carries that epoch; the worker that holds the partition then refuses a result of an epoch before
 * its own ({@link #fence}).
 */
public class OwnedQueues {
  static final Duration CONFIRMED_WITHIN = Duration.ofSeconds(7);
  private static final String LAST_HEARTBEAT = "last-heartbeat-seconds-ago";

  private final KafkaListenerEndpointRegistry registry;
  private final int partitions;
  private final Map<Integer, Held> epochs = new ConcurrentHashMap<>();

  /**
   * Which of this worker's consumers holds a partition, and since which generation: a consumer told
   * late that it lost a partition a sibling consumer has taken since gives up nothing.
   */
  private record Held(Object by, long epoch) {}

  public OwnedQueues(KafkaListenerEndpointRegistry registry, int partitions) {
    this.registry = registry;
    this.partitions = partitions;
  }

  /** A test of queue ids against the partitions held right now (empty while none are). */
  public Predicate<String> now() {
    MessageListenerContainer container = registry.getListenerContainer(CommandListener.ID);
    Collection<TopicPartition> assigned =
        container == null ? null : container.getAssignedPartitions();
    if (assigned == null || !recentlyConfirmed(container.metrics())) {
      return id -> false;
    }
    Set<Integer> owned =
        assigned.stream().map(TopicPartition::partition).collect(Collectors.toSet());
    return id -> owned.contains(partitionOf(id));
  }

  /**
   * True unless some consumer's last successful heartbeat is older than {@link #CONFIRMED_WITHIN}
   * (a consumer that has not sent one yet, or reports none, counts as confirmed: it holds what its
   * assignment says).
   */
  static boolean recentlyConfirmed(Map<String, Map<MetricName, ? extends Metric>> byClient) {
    for (Map<MetricName, ? extends Metric> metrics : byClient.values()) {
      for (Map.Entry<MetricName, ? extends Metric> metric : metrics.entrySet()) {
        if (metric.getKey().name().equals(LAST_HEARTBEAT)
            && metric.getValue().metricValue() instanceof Number ago
            && ago.doubleValue() > CONFIRMED_WITHIN.toSeconds()) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Consumer {@code by} took {@code taken} of the command topic in generation {@code generation}.
   */
  public void took(Collection<TopicPartition> taken, Object by, long generation) {
    taken.forEach(p -> epochs.put(p.partition(), new Held(by, generation)));
  }

  /**
   * Consumer {@code by} gave {@code given} of the command topic up (or lost them).
   *
   * @return those it held: not those another consumer of this worker has taken since
   */
  public List<TopicPartition> gave(Collection<TopicPartition> given, Object by) {
    return given.stream()
        .filter(
            p ->
                epochs.computeIfPresent(p.partition(), (k, held) -> held.by() == by ? null : held)
                    == null)
        .toList();
  }

  /** The epoch in which this worker took the partition of queue {@code id}; empty: not held. */
  public Optional<Long> epochOf(String id) {
    return Optional.ofNullable(epochs.get(partitionOf(id))).map(Held::epoch);
  }

  /** Refuses an effect result started in an epoch before the one this worker holds it in. */
  public Fence fence() {
    return (CommandEnvelope e) ->
        e.epoch() != null && epochOf(e.queue().id()).map(held -> e.epoch() < held).orElse(false);
  }

  /** The partition Kafka's default partitioner picks for a key. */
  public int partitionOf(String key) {
    return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
  }
}
