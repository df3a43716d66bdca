package dev.trainyard.worker.engine;

/**
 * What the source-hosting platform says about a PR. Empty strings until it has reported; the base
 * branch then defaults to the queue's target branch (API.md §2). {@code hold}: what keeps the host
 * from merging it beyond conflicts (a draft, protection), null when nothing does.
 */
public record PullRequestInfo(
    String title, String sha, String baseBranch, String author, String headBranch, String hold) {

  public PullRequestInfo(
      String title, String sha, String baseBranch, String author, String headBranch) {
    this(title, sha, baseBranch, author, headBranch, null);
  }

  public static PullRequestInfo unknown(String targetBranch) {
    return new PullRequestInfo("", "", targetBranch, "", null);
  }
}
