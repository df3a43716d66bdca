package dev.trainyard.worker.scm;

import java.util.List;

/** Building a test branch either produced its head commit or hit a conflict with one PR. */
public sealed interface TestBranchResult {
  /**
   * The branch (without {@code refs/heads/}), the commit it was built on, its head, and the PR head
   * commits the builder verified that head contains.
   */
  record Built(String branch, String baseSha, String sha, List<String> containedHeads)
      implements TestBranchResult {
    public Built {
      containedHeads = List.copyOf(containedHeads);
    }
  }

  /** {@code prNumber} does not merge cleanly on top of the base and the PRs before it. */
  record Conflict(long prNumber) implements TestBranchResult {}

  /** The base to build on does not exist (the target branch is missing). */
  record NoBase(String reason) implements TestBranchResult {}
}
