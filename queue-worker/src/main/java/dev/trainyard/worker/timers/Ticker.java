package dev.trainyard.worker.timers;

import dev.trainyard.common.command.CommandEnvelope;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.topic.Topics;
import dev.trainyard.worker.processing.CommandListener;
import dev.trainyard.worker.store.QueueStore;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Collection;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Every interval, sends a {@code Tick} to each due queue whose partition this instance owns, so
 * that with many workers each queue is ticked by its one writer. A tick that arrives twice is
 * harmless: deciding it again finds nothing due.
 */
public class Ticker {
  private static final Logger log = LoggerFactory.getLogger(Ticker.class);
  private final QueueStore store;
  private final KafkaTemplate<String, String> kafka;
  private final KafkaListenerEndpointRegistry registry;
  private final InstantSource clock;
  private final int partitions;

  public Ticker(
      QueueStore store,
      KafkaTemplate<String, String> kafka,
      KafkaListenerEndpointRegistry registry,
      InstantSource clock,
      int partitions) {
    this.store = store;
    this.kafka = kafka;
    this.registry = registry;
    this.clock = clock;
    this.partitions = partitions;
  }

  @Scheduled(fixedDelayString = "${trainyard.worker.tick-interval:5s}")
  public void tick() {
    Set<Integer> owned = ownedPartitions();
    if (owned.isEmpty()) {
      return;
    }
    Instant now = clock.instant();
    try {
      for (String id : store.dueBefore(now)) {
        if (owned.contains(partitionOf(id))) {
          store
              .load(id)
              .filter(q -> q.aggregate() != null)
              .ifPresent(q -> send(q.aggregate().key(), now));
        }
      }
    } catch (RuntimeException e) {
      log.warn("could not look for due queues; the next round retries: {}", e.toString());
    }
  }

  private void send(QueueKey key, Instant now) {
    CommandEnvelope tick =
        new CommandEnvelope(UUID.randomUUID().toString(), null, key, now, new QueueCommand.Tick());
    kafka
        .send(Topics.QUEUE_COMMANDS, key.id(), Json.mapper().writeValueAsString(tick))
        .whenComplete(
            (result, error) -> {
              if (error != null) {
                log.warn("could not send a tick to {}; the next round retries", key, error);
              }
            });
  }

  private Set<Integer> ownedPartitions() {
    MessageListenerContainer container = registry.getListenerContainer(CommandListener.ID);
    Collection<TopicPartition> assigned =
        container == null ? null : container.getAssignedPartitions();
    return assigned == null
        ? Set.of()
        : assigned.stream().map(TopicPartition::partition).collect(Collectors.toSet());
  }

  /** The partition Kafka's default partitioner picks for a key. */
  int partitionOf(String key) {
    return Utils.toPositive(Utils.murmur2(key.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
        % partitions;
  }
}
