package dev.trainyard.worker.processing;

import dev.trainyard.common.command.CommandEnvelope;

/**
 * Observes the steps of command processing. Fault-injection tests use it to crash a consumer at the
 * worst moment (after the store write, before the offset commit), or to make deciding a command
 * throw as a bug in the engine would.
 */
public interface ProcessingProbe {
  ProcessingProbe NONE = envelope -> {};

  /**
   * Called for each command handled (not answered before) once its answer is durable (with the new
   * state, or on its own when it changed nothing), before events, replies and the offset commit.
   */
  void afterStore(CommandEnvelope envelope);

  /** Called just before the engine decides {@code envelope}; what it throws, the engine threw. */
  default void beforeDecide(CommandEnvelope envelope) {}
}
