package dev.trainyard.worker.processing;

import dev.trainyard.common.command.CommandEnvelope;
import dev.trainyard.common.command.CommandReply;
import dev.trainyard.common.event.EventHeaders;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.telemetry.Traces;
import dev.trainyard.common.topic.TopicNames;
import dev.trainyard.worker.store.OutboxEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/**
 * Sends events and replies to Kafka and waits for the broker's acknowledgement, at most {@link
 * #ACK_TIMEOUT}: within the gateway's reply timeout (4.5 s), so a poll whose publish the brokers do
 * not confirm (a leader election, a lost in-sync replica) is retried while its client still waits,
 * instead of holding the partition for longer than anyone waits.
 */
@Component
public class Publisher {
  static final Duration ACK_TIMEOUT = Duration.ofSeconds(4);
  private final KafkaTemplate<String, String> kafka;
  private final TopicNames topics;

  public Publisher(KafkaTemplate<String, String> kafka, TopicNames topics) {
    this.kafka = kafka;
    this.topics = topics;
  }

  /** Sends the events; the future completes when the broker has them all. */
  public CompletableFuture<Void> events(String queueKey, String org, List<OutboxEvent> events) {
    CompletableFuture<?>[] sends =
        events.stream()
            .map(
                e -> {
                  ProducerRecord<String, String> record =
                      new ProducerRecord<>(topics.events(), queueKey, e.body());
                  record.headers().add(EventHeaders.EVENT_ID, bytes(e.id()));
                  record.headers().add(EventHeaders.ORG, bytes(org));
                  record.headers().add(EventHeaders.TYPE, bytes(e.type()));
                  Traces.addHeader(record.headers(), e.traceparent());
                  return kafka.send(record);
                })
            .toArray(CompletableFuture[]::new);
    return CompletableFuture.allOf(sends);
  }

  /**
   * A reply and the partition of the reply topic its gateway reads it from (null: where its key
   * hashes, for a gateway that named none).
   */
  public record Reply(CommandReply body, Integer partition) {
    public static Reply to(CommandEnvelope envelope, CommandReply body) {
      return new Reply(body, envelope.replyPartition());
    }
  }

  public CompletableFuture<?> reply(Reply reply) {
    return kafka.send(
        new ProducerRecord<>(
            topics.replies(),
            reply.partition(),
            reply.body().correlationId(),
            Json.mapper().writeValueAsString(reply.body())));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** Waits for the broker's acknowledgement of every send. */
  public static void await(CompletableFuture<?>... futures) {
    CompletableFuture<?> future = CompletableFuture.allOf(futures);
    try {
      future.get(ACK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while publishing", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("Kafka did not acknowledge a publish", e);
    }
  }
}
