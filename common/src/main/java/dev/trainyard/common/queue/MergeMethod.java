package dev.trainyard.common.queue;

/** How a tested pull request lands on the target branch. */
public enum MergeMethod implements WireEnum {
  MERGE_COMMIT,
  SQUASH,
  REBASE
}
