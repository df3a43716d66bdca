package dev.trainyard.worker.scm;

/**
 * A pull request's number, head commit and title, as a test run includes it; {@code baseBranch}:
 * its base when it is not the target (a stacked PR, which a landing retargets), else null.
 */
public record PullRequestHead(long number, String sha, String title, String baseBranch) {
  public PullRequestHead(long number, String sha, String title) {
    this(number, sha, title, null);
  }
}
