package dev.trainyard.worker.config;

import dev.trainyard.worker.processing.CommandListener;
import dev.trainyard.worker.signals.OwnedQueues;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * What the worker does when its partitions of the command topic move. Spring Boot gives one
 * rebalance listener to every listener container, the test-results intake on the events topic
 * included, so each partition is first told by its topic: only the command topic's count is the
 * queue-to-partition map (the events topic may have more partitions, {@code
 * topics.eventPartitions}, and that is no fault).
 *
 * <p>Whenever command partitions move, the processor forgets its cached queues (a partition that
 * comes back after another worker held it is read from the store again). A partition taken gets its
 * ownership epoch ({@link OwnedQueues}); one about to be given up loses it first, and the effects
 * of its queues are stopped before it goes, so its next owner never runs them alongside. A command
 * partition beyond {@code TRAINYARD_WORKER_COMMAND_PARTITIONS} means the topic grew outside the
 * documented procedure: this worker would own queues another worker owns by the old count. It stops
 * consuming that partition at once (paused before its first fetch, and kept paused by its
 * container) and reports itself broken, so that it is restarted with the right setting.
 */
final class CommandPartitions implements ConsumerAwareRebalanceListener {
  private static final Logger log = LoggerFactory.getLogger(CommandPartitions.class);
  private final String commandTopic;
  private final Consumer<Collection<TopicPartition>> forgetCachedQueues;
  private final OwnedQueues owned;
  private final Consumer<Collection<TopicPartition>> release;
  private final IntSupplier configured;
  private final ApplicationEventPublisher events;
  private final ObjectProvider<KafkaListenerEndpointRegistry> registry;

  /**
   * @param release stops the effects of the queues of partitions about to be given up, before they
   *     are (their next owner starts them again)
   */
  CommandPartitions(
      String commandTopic,
      Consumer<Collection<TopicPartition>> forgetCachedQueues,
      OwnedQueues owned,
      Consumer<Collection<TopicPartition>> release,
      IntSupplier configured,
      ApplicationEventPublisher events,
      ObjectProvider<KafkaListenerEndpointRegistry> registry) {
    this.commandTopic = commandTopic;
    this.forgetCachedQueues = forgetCachedQueues;
    this.owned = owned;
    this.release = release;
    this.configured = configured;
    this.events = events;
    this.registry = registry;
  }

  /** Before the partitions go: no epoch for them any more, and their effects stopped. */
  @Override
  public void onPartitionsRevokedBeforeCommit(
      org.apache.kafka.clients.consumer.Consumer<?, ?> consumer,
      Collection<TopicPartition> partitions) {
    List<TopicPartition> given = owned.gave(commands(partitions), consumer);
    if (!given.isEmpty()) {
      release.accept(given);
    }
  }

  @Override
  public void onPartitionsRevokedAfterCommit(
      org.apache.kafka.clients.consumer.Consumer<?, ?> consumer,
      Collection<TopicPartition> partitions) {
    List<TopicPartition> revoked = commands(partitions);
    if (!revoked.isEmpty()) {
      forgetCachedQueues.accept(revoked);
    }
  }

  @Override
  public void onPartitionsLost(
      org.apache.kafka.clients.consumer.Consumer<?, ?> consumer,
      Collection<TopicPartition> partitions) {
    List<TopicPartition> lost = commands(partitions);
    if (!lost.isEmpty()) {
      List<TopicPartition> given = owned.gave(lost, consumer);
      if (!given.isEmpty()) {
        release.accept(given);
      }
      forgetCachedQueues.accept(lost);
    }
  }

  @Override
  public void onPartitionsAssigned(
      org.apache.kafka.clients.consumer.Consumer<?, ?> consumer,
      Collection<TopicPartition> partitions) {
    List<TopicPartition> assigned = commands(partitions);
    if (assigned.isEmpty()) {
      return;
    }
    forgetCachedQueues.accept(assigned);
    int count = configured.getAsInt();
    List<TopicPartition> grown = assigned.stream().filter(p -> p.partition() >= count).toList();
    owned.took(
        assigned.stream().filter(p -> p.partition() < count).toList(),
        consumer,
        consumer.groupMetadata().generationId());
    if (grown.isEmpty()) {
      return;
    }
    consumer.pause(grown);
    KafkaListenerEndpointRegistry listeners = registry.getIfAvailable();
    MessageListenerContainer container =
        listeners == null ? null : listeners.getListenerContainer(CommandListener.ID);
    if (container != null) {
      grown.forEach(container::pausePartition);
    }
    log.error(
        "assigned {} but TRAINYARD_WORKER_COMMAND_PARTITIONS is {}: the topic grew outside the"
            + " documented procedure; these partitions are not consumed, and this worker reports"
            + " itself broken",
        grown,
        count);
    AvailabilityChangeEvent.publish(events, this, LivenessState.BROKEN);
  }

  private List<TopicPartition> commands(Collection<TopicPartition> partitions) {
    return partitions.stream().filter(p -> p.topic().equals(commandTopic)).toList();
  }
}
