package dev.trainyard.common.queue;

/** Whether a PR merges cleanly into its target, as the source host reports it. */
public enum Mergeability implements WireEnum {
  UNSPECIFIED,
  IN_PROGRESS,
  MERGEABLE,
  NOT_MERGEABLE
}
