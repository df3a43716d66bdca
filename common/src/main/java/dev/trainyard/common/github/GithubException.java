package dev.trainyard.common.github;

/**
 * GitHub answered a call with an error that a retry will not change (a missing permission, an
 * installation removed, a resource that does not exist); the message says which, in one sentence.
 */
public final class GithubException extends RuntimeException {
  private final int status;

  public GithubException(int status, String message) {
    super(message);
    this.status = status;
  }

  public int status() {
    return status;
  }
}
