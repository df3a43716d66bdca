package dev.trainyard.worker.scm;

/** What happened when a tested run was to land on its target branch. */
public sealed interface MergeResult {
  /** The target branch now points at {@code sha}. */
  record Merged(String sha) implements MergeResult {}

  /** The target moved since the run was built; nothing was changed and the run must be retested. */
  record TargetMoved(String targetSha) implements MergeResult {}

  /** The merge method could not replay the PRs (a rebase conflict); nothing was changed. */
  record Conflict(long prNumber) implements MergeResult {}

  /**
   * The merge method would land, for PR {@code prNumber}, a tree other than the one CI tested
   * ({@code why}); nothing was changed. Testing again would not change it.
   */
  record TreeDiffers(long prNumber, String why) implements MergeResult {}

  /**
   * PR {@code prNumber}'s head is no longer the tested one (pushed to since): nothing was changed,
   * and the PR must be read again, which takes it out of the queue.
   */
  record HeadModified(long prNumber) implements MergeResult {}

  /**
   * The host refused the landing for a reason testing again will not change (branch protection
   * without a bypass for trainyard, linear history or signed commits required, a merge method the
   * repository disables, approvals missing); {@code message} says why in the host's words. Nothing
   * was changed.
   */
  record Refused(String message) implements MergeResult {}
}
