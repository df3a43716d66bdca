package dev.trainyard.worker.engine;

/**
 * What the source-hosting platform says about a PR. Empty strings until it has reported; the base
 * branch then defaults to the queue's target branch (API.md §2).
 */
public record PullRequestInfo(
    String title, String sha, String baseBranch, String author, String headBranch) {

  public static PullRequestInfo unknown(String targetBranch) {
    return new PullRequestInfo("", "", targetBranch, "", null);
  }
}
