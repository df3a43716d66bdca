package dev.trainyard.worker.scm;

/** Building a test branch either produced its head commit or hit a conflict with one PR. */
public sealed interface TestBranchResult {
  /** The branch (without {@code refs/heads/}), the commit it was built on and its head. */
  record Built(String branch, String baseSha, String sha) implements TestBranchResult {}

  /** {@code prNumber} does not merge cleanly on top of the base and the PRs before it. */
  record Conflict(long prNumber) implements TestBranchResult {}

  /** The base to build on does not exist (the target branch is missing). */
  record NoBase(String reason) implements TestBranchResult {}
}
