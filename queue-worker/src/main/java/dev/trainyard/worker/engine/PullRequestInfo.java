package dev.trainyard.worker.engine;

import java.util.List;

/**
 * What the source-hosting platform says about a PR. Empty strings until it has reported; the base
 * branch then defaults to the queue's target branch (API.md §2). {@code hold}: what keeps the host
 * from merging it beyond conflicts (a draft, protection), null when nothing does; {@code
 * dependsOn}: the PRs its description or head commit names in {@code Depends-On: #n} lines.
 */
public record PullRequestInfo(
    String title,
    String sha,
    String baseBranch,
    String author,
    String headBranch,
    String hold,
    List<Long> dependsOn) {

  public PullRequestInfo {
    dependsOn = dependsOn == null ? List.of() : List.copyOf(dependsOn);
  }

  public PullRequestInfo(
      String title, String sha, String baseBranch, String author, String headBranch) {
    this(title, sha, baseBranch, author, headBranch, null, List.of());
  }

  public static PullRequestInfo unknown(String targetBranch) {
    return new PullRequestInfo("", "", targetBranch, "", null);
  }
}
