package dev.trainyard.common.command;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.trainyard.common.queue.QueueKey;
import java.time.Instant;

/**
 * A command on its way to the worker. {@code commandId} de-duplicates redeliveries; {@code
 * correlationId} (null for fire-and-forget commands such as ticks) routes the reply back to the
 * gateway instance waiting for it, on the reply partition it names ({@code replyPartition}; null
 * from a gateway that predates it: the reply then goes where its key hashes). {@code traceparent}
 * (W3C; null when its sender traced nothing) continues the sender's trace in the worker. {@code
 * epoch} (effect results only) is the ownership epoch of the worker that started the effect: the
 * consumer-group generation in which it took the queue's partition; a worker that took the
 * partition later refuses the result (a previous owner's effect may have raced its own).
 */
public record CommandEnvelope(
    String commandId,
    String correlationId,
    QueueKey queue,
    Instant sentAt,
    QueueCommand command,
    @JsonInclude(JsonInclude.Include.NON_NULL) Integer replyPartition,
    @JsonInclude(JsonInclude.Include.NON_NULL) String traceparent,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long epoch) {

  public CommandEnvelope(
      String commandId,
      String correlationId,
      QueueKey queue,
      Instant sentAt,
      QueueCommand command,
      Integer replyPartition,
      String traceparent) {
    this(commandId, correlationId, queue, sentAt, command, replyPartition, traceparent, null);
  }

  public CommandEnvelope(
      String commandId,
      String correlationId,
      QueueKey queue,
      Instant sentAt,
      QueueCommand command,
      Integer replyPartition) {
    this(commandId, correlationId, queue, sentAt, command, replyPartition, null);
  }

  public CommandEnvelope(
      String commandId,
      String correlationId,
      QueueKey queue,
      Instant sentAt,
      QueueCommand command) {
    this(commandId, correlationId, queue, sentAt, command, null, null);
  }

  /** This envelope continuing the trace {@code traceparent}. */
  public CommandEnvelope withTraceparent(String traceparent) {
    return new CommandEnvelope(
        commandId, correlationId, queue, sentAt, command, replyPartition, traceparent, epoch);
  }

  /** This envelope sent by an effect its worker started in ownership epoch {@code epoch}. */
  public CommandEnvelope withEpoch(Long epoch) {
    return new CommandEnvelope(
        commandId, correlationId, queue, sentAt, command, replyPartition, traceparent, epoch);
  }
}
