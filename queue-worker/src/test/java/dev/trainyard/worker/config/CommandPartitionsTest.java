package dev.trainyard.worker.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.topic.Topics;
import dev.trainyard.worker.signals.OwnedQueues;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.internals.AutoOffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;

/**
 * The one rebalance listener every container gets, told partitions by their topic: an events
 * partition numbered beyond the command partition count (the chart's {@code
 * topics.eventPartitions=24} with 12 command partitions) is no fault; a command partition beyond it
 * is paused at once and the worker reports itself broken.
 */
class CommandPartitionsTest {
  private static final int COMMAND_PARTITIONS = 12;

  @ParameterizedTest(name = "{0}-{1}")
  @CsvSource({
    // topic, partition, paused and broken, cache forgotten
    "trainyard.events, 23, false, false",
    "trainyard.events, 12, false, false",
    "trainyard.events, 0, false, false",
    "trainyard.queue-commands, 11, false, true",
    "trainyard.queue-commands, 12, true, true",
    "trainyard.queue-commands, 23, true, true",
  })
  void partitionsAreJudgedByTheirTopic(
      String topic, int partition, boolean refused, boolean forgets) {
    AtomicInteger forgotten = new AtomicInteger();
    List<Object> published = new ArrayList<>();
    List<TopicPartition> released = new ArrayList<>();
    OwnedQueues owned = new OwnedQueues(new KafkaListenerEndpointRegistry(), COMMAND_PARTITIONS);
    CommandPartitions listener =
        new CommandPartitions(
            Topics.QUEUE_COMMANDS,
            moved -> forgotten.incrementAndGet(),
            owned,
            released::addAll,
            () -> COMMAND_PARTITIONS,
            published::add,
            new StaticListableBeanFactory().getBeanProvider(KafkaListenerEndpointRegistry.class));
    MockConsumer<String, String> consumer =
        new MockConsumer<>(AutoOffsetResetStrategy.EARLIEST.name());
    List<TopicPartition> assigned =
        IntStream.rangeClosed(Math.max(0, partition - 1), partition)
            .mapToObj(p -> new TopicPartition(topic, p))
            .toList();
    consumer.assign(assigned);

    listener.onPartitionsAssigned(consumer, assigned);

    assertThat(consumer.paused())
        .as("paused")
        .isEqualTo(
            refused
                ? assigned.stream()
                    .filter(p -> p.partition() >= COMMAND_PARTITIONS)
                    .collect(Collectors.toSet())
                : Set.of());
    assertThat(published)
        .as("liveness")
        .hasSize(refused ? 1 : 0)
        .allSatisfy(
            e ->
                assertThat(((AvailabilityChangeEvent<?>) e).getState())
                    .isEqualTo(LivenessState.BROKEN));
    assertThat(forgotten.get()).as("cached queues forgotten").isEqualTo(forgets ? 1 : 0);
    String queue = queueOn(owned, partition % COMMAND_PARTITIONS);
    boolean held = topic.equals(Topics.QUEUE_COMMANDS) && partition < COMMAND_PARTITIONS;
    assertThat(owned.epochOf(queue))
        .as("an ownership epoch for a command partition taken")
        .isEqualTo(
            held ? Optional.of((long) consumer.groupMetadata().generationId()) : Optional.empty());

    listener.onPartitionsRevokedBeforeCommit(consumer, assigned);
    assertThat(owned.epochOf(queue)).as("none once given up").isEmpty();
    assertThat(released)
        .as("effects stopped before the command partitions go")
        .isEqualTo(topic.equals(Topics.QUEUE_COMMANDS) ? assigned : List.of());
    listener.onPartitionsRevokedAfterCommit(consumer, assigned);
    assertThat(forgotten.get())
        .as("forgotten again when they go")
        .isEqualTo(topic.equals(Topics.QUEUE_COMMANDS) ? 2 : 0);
  }

  /**
   * One worker runs several consumers. One of them, thrown out of the group (a long pause), is told
   * it lost a partition a sibling has taken since: the sibling keeps its epoch and its effects.
   */
  @Test
  void aConsumerToldLateItLostAPartitionTakesNothingFromTheSiblingThatHoldsItNow() {
    OwnedQueues owned = new OwnedQueues(new KafkaListenerEndpointRegistry(), COMMAND_PARTITIONS);
    List<TopicPartition> released = new ArrayList<>();
    CommandPartitions listener =
        new CommandPartitions(
            Topics.QUEUE_COMMANDS,
            moved -> {},
            owned,
            released::addAll,
            () -> COMMAND_PARTITIONS,
            e -> {},
            new StaticListableBeanFactory().getBeanProvider(KafkaListenerEndpointRegistry.class));
    TopicPartition p = new TopicPartition(Topics.QUEUE_COMMANDS, 3);
    MockConsumer<String, String> first =
        new MockConsumer<>(AutoOffsetResetStrategy.EARLIEST.name());
    MockConsumer<String, String> sibling =
        new MockConsumer<>(AutoOffsetResetStrategy.EARLIEST.name());
    String queue = queueOn(owned, 3);
    listener.onPartitionsAssigned(first, List.of(p));
    listener.onPartitionsAssigned(sibling, List.of(p));

    listener.onPartitionsLost(first, List.of(p));

    assertThat(owned.epochOf(queue)).as("the sibling's epoch stays").isPresent();
    assertThat(released).as("the sibling's effects go on").isEmpty();
    listener.onPartitionsRevokedBeforeCommit(sibling, List.of(p));
    assertThat(owned.epochOf(queue)).isEmpty();
    assertThat(released).containsExactly(p);
  }

  /** A queue id whose commands go to {@code partition}. */
  private static String queueOn(OwnedQueues owned, int partition) {
    return IntStream.iterate(0, i -> i + 1)
        .mapToObj(i -> "org/github.com/acme/q" + i + ":main")
        .filter(id -> owned.partitionOf(id) == partition)
        .findFirst()
        .orElseThrow();
  }
}
