package dev.trainyard.worker.signals;

import dev.trainyard.common.command.CommandEnvelope;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.telemetry.Traces;
import dev.trainyard.common.topic.TopicNames;
import java.time.InstantSource;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Sends a command nobody waits for (no correlation id) onto the queue's key. A lost one is sent
 * again by the next round of whoever sent it.
 */
public class Signals {
  private static final Logger log = LoggerFactory.getLogger(Signals.class);
  private final KafkaTemplate<String, String> kafka;
  private final TopicNames topics;
  private final InstantSource clock;
  private final Traces traces;

  public Signals(
      KafkaTemplate<String, String> kafka, TopicNames topics, InstantSource clock, Traces traces) {
    this.kafka = kafka;
    this.topics = topics;
    this.clock = clock;
    this.traces = traces;
  }

  /**
   * Sends the command, continuing the trace of the span in scope (an effect's); the future
   * completes when the broker has it.
   */
  public CompletableFuture<?> send(QueueKey key, QueueCommand command) {
    return send(key, command, UUID.randomUUID().toString());
  }

  /**
   * Sends the command under {@code commandId}: one derived from what caused it makes a resend after
   * a crash count once (the worker drops a command id it applied).
   */
  public CompletableFuture<?> send(QueueKey key, QueueCommand command, String commandId) {
    return send(
        new CommandEnvelope(commandId, null, key, clock.instant(), command)
            .withTraceparent(traces.current()));
  }

  /** Sends an effect's result, marked with the ownership epoch the effect was started in. */
  public CompletableFuture<?> send(QueueKey key, QueueCommand result, long epoch) {
    return send(
        new CommandEnvelope(UUID.randomUUID().toString(), null, key, clock.instant(), result)
            .withTraceparent(traces.current())
            .withEpoch(epoch));
  }

  private CompletableFuture<?> send(CommandEnvelope envelope) {
    QueueKey key = envelope.queue();
    return kafka
        .send(topics.commands(), key.id(), Json.mapper().writeValueAsString(envelope))
        .whenComplete(
            (result, error) -> {
              if (error != null) {
                log.warn("could not signal {}; the next round retries: {}", key, error.toString());
              }
            });
  }
}
