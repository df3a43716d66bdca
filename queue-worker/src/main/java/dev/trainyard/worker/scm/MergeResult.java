package dev.trainyard.worker.scm;

import java.util.List;

/** What happened when a tested run was to land on its target branch. */
public sealed interface MergeResult {
  /** The target branch now points at {@code sha}. */
  record Merged(String sha) implements MergeResult {}

  /**
   * The host landed the first PRs of the batch ({@code merged}, in order; the target is now at
   * {@code targetSha}) and then refused PR {@code stoppedAt}, {@code why} in its words: what it
   * merged is merged, the rest are tested again.
   */
  record PartlyMerged(List<Long> merged, String targetSha, long stoppedAt, String why)
      implements MergeResult {
    public PartlyMerged {
      merged = List.copyOf(merged);
    }
  }

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
   * The host now holds PR {@code prNumber} ({@code why}: a review requested changes since it was
   * tested, or an approval it requires is gone): nothing was changed, and the PR must be read
   * again, which takes it out of the queue until the host lets it go.
   */
  record Held(long prNumber, String why) implements MergeResult {}

  /**
   * The host refused the landing for a reason testing again will not change (branch protection
   * without a bypass for trainyard, linear history or signed commits required, a merge method the
   * repository disables, approvals missing); {@code message} says why in the host's words. Nothing
   * was changed.
   */
  record Refused(String message) implements MergeResult {}
}
