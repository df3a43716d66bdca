package dev.trainyard.common.queue;

/** How a queue forms lanes: one lane, or lanes by impacted-target overlap. */
public enum QueueMode implements WireEnum {
  SINGLE,
  PARALLEL
}
