package dev.trainyard.common.queue;

/** Whether a PR may merge without a test run when nothing is ahead of it. */
public enum DirectMergeMode implements WireEnum {
  OFF,
  ALWAYS
}
