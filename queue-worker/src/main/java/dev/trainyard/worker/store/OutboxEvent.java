package dev.trainyard.worker.store;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A public event stored with the state change that caused it, published after the write; {@code
 * traceparent} (null when untraced) continues the trace of the command that caused it.
 */
public record OutboxEvent(
    String id,
    String type,
    String body,
    @JsonInclude(JsonInclude.Include.NON_NULL) String traceparent) {}
