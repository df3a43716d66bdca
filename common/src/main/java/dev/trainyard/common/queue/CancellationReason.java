package dev.trainyard.common.queue;

/** Why a pull request left the queue cancelled; upper case on the wire (API.md §7). */
public enum CancellationReason {
  USER_REQUESTED,
  PR_CLOSED,
  PR_PUSHED_TO,
  PR_BASE_BRANCH_CHANGED,
  /** Not ready for longer than the queue's {@code notReadyTimeoutHours}. */
  NOT_READY_TIMEOUT,
  /** A pull request it depends on failed or was cancelled (API.md §2 {@code dependsOn}). */
  DEPENDENCY_FAILED
}
