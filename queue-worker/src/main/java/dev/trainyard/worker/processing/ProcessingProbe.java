package dev.trainyard.worker.processing;

import dev.trainyard.common.command.CommandEnvelope;

/**
 * Observes the steps of command processing. Fault-injection tests use it to crash a consumer at the
 * worst moment (after the store write, before the offset commit).
 */
public interface ProcessingProbe {
  ProcessingProbe NONE = envelope -> {};

  /** Called after the new state is durable and before events, replies and the offset commit. */
  void afterStore(CommandEnvelope envelope);
}
