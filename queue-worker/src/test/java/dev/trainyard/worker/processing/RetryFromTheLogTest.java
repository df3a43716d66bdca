package dev.trainyard.worker.processing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.boot.ListenerErrors;
import dev.trainyard.common.topic.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.internals.AutoOffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * A poll fails, and while it waits to be tried again a rebalance takes one of its partitions away.
 * The worker must never decide that partition's commands again: another worker owns their queues
 * now. Spring Kafka's in-memory batch retry (the handler the worker had) calls the listener with
 * the same records after the rebalance; {@link RetryFromTheLog} seeks the partitions still held
 * back to the batch and lets the next poll read them, committing nothing.
 */
class RetryFromTheLogTest {
  private static final TopicPartition HELD = new TopicPartition(Topics.QUEUE_COMMANDS, 0);
  private static final TopicPartition MOVED = new TopicPartition(Topics.QUEUE_COMMANDS, 1);

  static Stream<Arguments> handlers() {
    return Stream.of(
        Arguments.of("in-memory batch retry", ListenerErrors.retryUntilStored(), false),
        Arguments.of("retry from the log", new RetryFromTheLog(), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("handlers")
  void noRecordOfAPartitionTakenAwayIsHandedToTheListenerAgain(
      String name, CommonErrorHandler handler, boolean expectedToHold) {
    MockConsumer<String, String> consumer =
        new MockConsumer<>(AutoOffsetResetStrategy.EARLIEST.name());
    consumer.subscribe(List.of(Topics.QUEUE_COMMANDS));
    consumer.rebalance(List.of(HELD, MOVED));
    consumer.updateBeginningOffsets(Map.of(HELD, 0L, MOVED, 0L));
    consumer.seek(HELD, 7);
    consumer.seek(MOVED, 3);
    ConsumerRecords<String, String> batch =
        new ConsumerRecords<>(
            Map.of(
                HELD, List.of(record(HELD, 5), record(HELD, 6)), MOVED, List.of(record(MOVED, 2))),
            Map.of());
    // the next poll rebalances: the second partition goes to another worker
    consumer.schedulePollTask(() -> consumer.rebalance(List.of(HELD)));
    List<Set<TopicPartition>> handedWhileMissing = new ArrayList<>();
    Runnable listener =
        () -> {
          if (!consumer.assignment().containsAll(batch.partitions())) {
            handedWhileMissing.add(batch.partitions());
          }
        };

    handler.handleBatch(
        new IllegalStateException("the store is away"), batch, consumer, running(), listener);
    consumer.poll(Duration.ZERO);

    assertThat(handedWhileMissing.isEmpty()).as(name).isEqualTo(expectedToHold);
    if (expectedToHold) {
      assertThat(consumer.assignment()).containsExactly(HELD);
      assertThat(consumer.position(HELD)).as("read again from the batch").isEqualTo(5);
      assertThat(handler.isAckAfterHandle()).as("nothing committed").isFalse();
    }
  }

  @Test
  void theWaitDoublesWhileTheSameBatchFailsAndStartsOverForAnother() {
    RetryFromTheLog handler = new RetryFromTheLog();
    Map<TopicPartition, Long> one = Map.of(HELD, 5L);
    List<Long> waits = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      waits.add(handler.backoff(one));
    }
    waits.add(handler.backoff(Map.of(HELD, 9L)));

    assertThat(waits).containsExactly(100L, 200L, 400L, 800L, 1600L, 3200L, 5000L, 5000L, 100L);
  }

  private static ConsumerRecord<String, String> record(TopicPartition p, long offset) {
    return new ConsumerRecord<>(p.topic(), p.partition(), offset, "queue", "{}");
  }

  /** A container that runs and was asked for nothing (the handlers ask it only that). */
  private static MessageListenerContainer running() {
    return new MessageListenerContainer() {
      private final ContainerProperties properties = new ContainerProperties(Topics.QUEUE_COMMANDS);

      @Override
      public void setupMessageListener(Object messageListener) {}

      @Override
      public Map<
              String,
              Map<org.apache.kafka.common.MetricName, ? extends org.apache.kafka.common.Metric>>
          metrics() {
        return Map.of();
      }

      @Override
      public ContainerProperties getContainerProperties() {
        return properties;
      }

      @Override
      public void start() {}

      @Override
      public void stop() {}

      @Override
      public boolean isRunning() {
        return true;
      }

      @Override
      public boolean isPauseRequested() {
        return false;
      }

      @Override
      public boolean isPartitionPauseRequested(TopicPartition partition) {
        return false;
      }
    };
  }
}
