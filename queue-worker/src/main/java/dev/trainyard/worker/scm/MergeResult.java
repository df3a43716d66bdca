package dev.trainyard.worker.scm;

/** What happened when a tested run was to land on its target branch. */
public sealed interface MergeResult {
  /** The target branch now points at {@code sha}. */
  record Merged(String sha) implements MergeResult {}

  /** The target moved since the run was built; nothing was changed and the run must be retested. */
  record TargetMoved(String targetSha) implements MergeResult {}

  /** The merge method could not replay the PRs (a rebase conflict); nothing was changed. */
  record Conflict(long prNumber) implements MergeResult {}
}
