package dev.trainyard.gateway.commands;

import dev.trainyard.common.command.CommandReply;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.topic.TopicNames;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.KafkaMessageListenerContainer;
import org.springframework.kafka.listener.MessageListener;
import org.springframework.kafka.support.TopicPartitionOffset;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;

/**
 * Reads every partition the reply topic has (asked of the broker, not configured), starting at this
 * instance's start time (replies to its commands are never older), and completes the future waiting
 * for each correlation id; replies for other instances are skipped. Each command names one of those
 * partitions for its reply ({@link #partition()}), so a topic grown after this instance started
 * never takes a reply where it does not read.
 *
 * <p>It starts before the web server and stops after it: on shutdown the server first finishes the
 * requests in flight, whose replies still arrive. Until it reads its partitions the gateway is not
 * ready ({@link #health()}).
 */
@Component("replies")
public class ReplyRouter implements SmartLifecycle, HealthIndicator {
  /** Below the web server's phases: started before it, stopped after its graceful shutdown. */
  static final int PHASE = WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE - 2048;

  private static final Logger log = LoggerFactory.getLogger(ReplyRouter.class);
  private static final Duration DISCOVERY_RETRY = Duration.ofSeconds(1);

  private final Map<String, CompletableFuture<CommandReply>> waiting = new ConcurrentHashMap<>();
  private final ConsumerFactory<String, String> consumers;
  private final TopicNames topics;
  private final String groupId;
  private final long start = Instant.now().toEpochMilli() - 1_000;
  private volatile KafkaMessageListenerContainer<String, String> container;
  private volatile Integer partition;
  private volatile boolean running;
  private volatile Thread discovery;

  public ReplyRouter(ConsumerFactory<String, String> consumers, TopicNames topics) {
    this.consumers = consumers;
    this.topics = topics;
    this.groupId = topics.group("gateway-" + UUID.randomUUID());
  }

  /** Registers interest in a reply before the command is sent. */
  CompletableFuture<CommandReply> expect(String correlationId) {
    CompletableFuture<CommandReply> future = new CompletableFuture<>();
    waiting.put(correlationId, future);
    return future;
  }

  void forget(String correlationId) {
    waiting.remove(correlationId);
  }

  /** The reply partition commands name for their reply; null until the partitions are known. */
  Integer partition() {
    return partition;
  }

  private void onReply(ConsumerRecord<String, String> record) {
    CompletableFuture<CommandReply> future = waiting.remove(record.key());
    if (future == null) {
      return;
    }
    try {
      future.complete(Json.mapper().readValue(record.value(), CommandReply.class));
    } catch (JacksonException e) {
      log.error("unreadable reply for {}", record.key(), e);
      future.completeExceptionally(e);
    }
  }

  /** Up once this instance reads every reply partition. */
  @Override
  public Health health() {
    KafkaMessageListenerContainer<String, String> reading = container;
    Collection<TopicPartition> assigned = reading == null ? null : reading.getAssignedPartitions();
    return assigned != null && !assigned.isEmpty()
        ? Health.up().withDetail("partitions", assigned.size()).build()
        : Health.down().withDetail("partitions", 0).build();
  }

  @Override
  public int getPhase() {
    return PHASE;
  }

  /**
   * Asks the broker for the reply topic's partitions, then reads them; while the topic does not
   * exist yet (the workers create it) it asks again every second, off the starting thread.
   */
  @Override
  public synchronized void start() {
    running = true;
    discovery = new Thread(this::discover, "reply-partitions");
    discovery.setDaemon(true);
    discovery.start();
  }

  private void discover() {
    try (Consumer<String, String> consumer = consumers.createConsumer(groupId, "-discovery")) {
      while (running) {
        List<PartitionInfo> found;
        try {
          found = consumer.partitionsFor(topics.replies(), DISCOVERY_RETRY);
        } catch (RuntimeException e) {
          found = List.of();
        }
        if (found != null && !found.isEmpty()) {
          read(found.size());
          return;
        }
        log.info("waiting for topic {} to exist", topics.replies());
        Thread.sleep(DISCOVERY_RETRY.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private synchronized void read(int partitions) {
    if (!running) {
      return;
    }
    TopicPartitionOffset[] offsets = new TopicPartitionOffset[partitions];
    for (int p = 0; p < partitions; p++) {
      offsets[p] =
          new TopicPartitionOffset(
              topics.replies(), p, start, TopicPartitionOffset.SeekPosition.TIMESTAMP);
    }
    ContainerProperties props = new ContainerProperties(offsets);
    props.setGroupId(groupId);
    props.setAckMode(ContainerProperties.AckMode.MANUAL);
    props.setMessageListener((MessageListener<String, String>) this::onReply);
    KafkaMessageListenerContainer<String, String> reading =
        new KafkaMessageListenerContainer<>(consumers, props);
    reading.start();
    container = reading;
    partition = Math.floorMod(groupId.hashCode(), partitions);
    log.info("reading {} reply partitions, replies asked on partition {}", partitions, partition);
  }

  @Override
  public synchronized void stop() {
    running = false;
    if (discovery != null) {
      discovery.interrupt();
    }
    if (container != null) {
      container.stop();
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }
}
