package dev.trainyard.worker.processing;

import dev.trainyard.common.command.CommandEnvelope;

/**
 * Which effect results come from a worker that no longer owned their queue's partition when this
 * one took it: a previous owner's effect may have raced this worker's own (two builds of one run),
 * so its result is refused, never decided ({@code OwnedQueues#fence}).
 */
@FunctionalInterface
public interface Fence {
  Fence NONE = envelope -> false;

  boolean stale(CommandEnvelope envelope);
}
