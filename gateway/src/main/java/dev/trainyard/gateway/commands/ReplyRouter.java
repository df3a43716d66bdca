package dev.trainyard.gateway.commands;

import dev.trainyard.common.command.CommandReply;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.topic.Topics;
import dev.trainyard.gateway.config.GatewayProperties;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.KafkaMessageListenerContainer;
import org.springframework.kafka.listener.MessageListener;
import org.springframework.kafka.support.TopicPartitionOffset;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;

/**
 * Reads every partition of the reply topic, starting at this instance's start time (replies to its
 * commands are never older), and completes the future waiting for each correlation id. Replies for
 * other instances are skipped.
 */
@Component
public class ReplyRouter implements SmartLifecycle {
  private static final Logger log = LoggerFactory.getLogger(ReplyRouter.class);
  private final Map<String, CompletableFuture<CommandReply>> waiting = new ConcurrentHashMap<>();
  private final KafkaMessageListenerContainer<String, String> container;

  public ReplyRouter(ConsumerFactory<String, String> consumers, GatewayProperties props) {
    long start = Instant.now().toEpochMilli() - 1_000;
    TopicPartitionOffset[] partitions = new TopicPartitionOffset[props.replyPartitions()];
    for (int p = 0; p < partitions.length; p++) {
      partitions[p] =
          new TopicPartitionOffset(
              Topics.QUEUE_REPLIES, p, start, TopicPartitionOffset.SeekPosition.TIMESTAMP);
    }
    ContainerProperties containerProps = new ContainerProperties(partitions);
    containerProps.setGroupId("trainyard-gateway-" + UUID.randomUUID());
    containerProps.setAckMode(ContainerProperties.AckMode.MANUAL);
    containerProps.setMessageListener((MessageListener<String, String>) this::onReply);
    this.container = new KafkaMessageListenerContainer<>(consumers, containerProps);
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

  @Override
  public void start() {
    container.start();
  }

  @Override
  public void stop() {
    container.stop();
  }

  @Override
  public boolean isRunning() {
    return container.isRunning();
  }
}
