package dev.trainyard.common.queue;

/** The state of a queue (API.md §3). */
public enum QueueState implements WireEnum {
  RUNNING,
  PAUSED,
  DRAINING,
  SWITCHING_MODES
}
