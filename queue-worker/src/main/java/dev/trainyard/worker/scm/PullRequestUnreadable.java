package dev.trainyard.worker.scm;

/**
 * The host answered for the repository but not for one pull request (GitHub's 404 for a PR of a
 * repository it still shows): nothing is known of it this round, which is not the same as closed.
 * The poller skips the PR and reads it again on the next round.
 */
public final class PullRequestUnreadable extends RuntimeException {
  public PullRequestUnreadable(String message) {
    super(message, null, false, false);
  }
}
