package dev.trainyard.flaky.events;

import dev.trainyard.common.event.EventHeaders;
import dev.trainyard.common.topic.TopicNames;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Publishes {@code test_case.*} events to {@code trainyard.events} (key = test id, headers of
 * {@link EventHeaders}) and waits for the broker. Each caller makes its retry safe with ids derived
 * from the change, so a retry publishes the same ids again (subscribers receive an id once):
 * ingestion publishes before it stores a new status, so a failure stores nothing; a quarantine
 * setting is stored first with its event pending on the document and published after, and the next
 * change of that test publishes a pending event first.
 */
public class EventPublisher {
  private static final long ACK_SECONDS = 5;
  private final KafkaTemplate<String, String> kafka;
  private final TopicNames topics;

  public EventPublisher(KafkaTemplate<String, String> kafka, TopicNames topics) {
    this.kafka = kafka;
    this.topics = topics;
  }

  public void publish(List<TestCaseEvent> events) {
    if (events.isEmpty()) {
      return;
    }
    CompletableFuture<?>[] sends =
        events.stream()
            .map(
                e -> {
                  ProducerRecord<String, String> record =
                      new ProducerRecord<>(topics.events(), e.testId(), e.body());
                  record.headers().add(EventHeaders.EVENT_ID, bytes(e.id()));
                  record.headers().add(EventHeaders.ORG, bytes(e.org()));
                  record.headers().add(EventHeaders.TYPE, bytes(e.type()));
                  return kafka.send(record);
                })
            .toArray(CompletableFuture[]::new);
    try {
      CompletableFuture.allOf(sends).get(ACK_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KafkaException("interrupted while publishing events", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new KafkaException("the broker did not acknowledge the events", e);
    }
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
