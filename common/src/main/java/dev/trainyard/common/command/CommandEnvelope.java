package dev.trainyard.common.command;

import dev.trainyard.common.queue.QueueKey;
import java.time.Instant;

/**
 * A command on its way to the worker. {@code commandId} de-duplicates redeliveries; {@code
 * correlationId} (null for fire-and-forget commands such as ticks) routes the reply back to the
 * gateway instance waiting for it.
 */
public record CommandEnvelope(
    String commandId, String correlationId, QueueKey queue, Instant sentAt, QueueCommand command) {}
