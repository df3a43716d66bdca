package dev.trainyard.worker.signals;

import dev.trainyard.worker.processing.CommandListener;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

/** Which queues this worker instance writes: those whose key hashes to a partition it holds. */
public class OwnedQueues {
  private final KafkaListenerEndpointRegistry registry;
  private final int partitions;

  public OwnedQueues(KafkaListenerEndpointRegistry registry, int partitions) {
    this.registry = registry;
    this.partitions = partitions;
  }

  /** A test of queue ids against the partitions held right now (empty while none are). */
  public Predicate<String> now() {
    MessageListenerContainer container = registry.getListenerContainer(CommandListener.ID);
    Collection<TopicPartition> assigned =
        container == null ? null : container.getAssignedPartitions();
    Set<Integer> owned =
        assigned == null
            ? Set.of()
            : assigned.stream().map(TopicPartition::partition).collect(Collectors.toSet());
    return id -> owned.contains(partitionOf(id));
  }

  /** The partition Kafka's default partitioner picks for a key. */
  int partitionOf(String key) {
    return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
  }
}
