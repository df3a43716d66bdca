package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.QueueState;

/**
 * Every change of a queue's state (API.md §3 {@code state}; SCHEDULING.md "Planning rule"), as one
 * declared table. {@link QueueAggregate} refuses any other change; the engine's tests check that
 * every change declared here is made by some test.
 */
final class QueueTransitions {
  static final TransitionTable<QueueState> TABLE =
      TransitionTable.of("queue", QueueState.class, QueueState.RUNNING)
          // a person sets running, paused or draining; a mode change switches first
          .allow(
              QueueState.RUNNING,
              QueueState.PAUSED,
              QueueState.DRAINING,
              QueueState.SWITCHING_MODES)
          .allow(
              QueueState.PAUSED,
              QueueState.RUNNING,
              QueueState.DRAINING,
              QueueState.SWITCHING_MODES)
          .allow(
              QueueState.DRAINING,
              QueueState.RUNNING,
              QueueState.PAUSED,
              QueueState.SWITCHING_MODES)
          // in-flight runs finished: the new mode applies, and the queue goes where it was asked
          .allow(
              QueueState.SWITCHING_MODES,
              QueueState.RUNNING,
              QueueState.PAUSED,
              QueueState.DRAINING);

  private QueueTransitions() {}
}
