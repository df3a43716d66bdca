package dev.trainyard.common.command;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.trainyard.common.queue.QueueKey;
import java.time.Instant;

/**
 * A command on its way to the worker. {@code commandId} de-duplicates redeliveries; {@code
 * correlationId} (null for fire-and-forget commands such as ticks) routes the reply back to the
 * gateway instance waiting for it, on the reply partition it names ({@code replyPartition}; null
 * from a gateway that predates it: the reply then goes where its key hashes).
 */
public record CommandEnvelope(
    String commandId,
    String correlationId,
    QueueKey queue,
    Instant sentAt,
    QueueCommand command,
    @JsonInclude(JsonInclude.Include.NON_NULL) Integer replyPartition) {

  public CommandEnvelope(
      String commandId,
      String correlationId,
      QueueKey queue,
      Instant sentAt,
      QueueCommand command) {
    this(commandId, correlationId, queue, sentAt, command, null);
  }
}
