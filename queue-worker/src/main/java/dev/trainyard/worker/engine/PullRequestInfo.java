package dev.trainyard.worker.engine;

import dev.trainyard.common.command.HostDependency;
import java.util.List;

/**
 * What the source-hosting platform says about a PR. Empty strings until it has reported; the base
 * branch then defaults to the queue's target branch (API.md §2). {@code hold}: what keeps the host
 * from merging it beyond conflicts (a draft, protection), null when nothing does; {@code
 * dependsOn}: the PRs its description or head commit names in {@code Depends-On: #n} lines; {@code
 * hostDependencies}: what the host says of those of its dependencies the queue does not know;
 * {@code stackedOn}: the PR whose head branch is its base (a stack; also among {@code dependsOn}),
 * null when it is based on no PR.
 */
public record PullRequestInfo(
    String title,
    String sha,
    String baseBranch,
    String author,
    String headBranch,
    String hold,
    List<Long> dependsOn,
    List<HostDependency> hostDependencies,
    Long stackedOn) {

  public PullRequestInfo {
    dependsOn = dependsOn == null ? List.of() : List.copyOf(dependsOn);
    hostDependencies = hostDependencies == null ? List.of() : List.copyOf(hostDependencies);
  }

  public PullRequestInfo(
      String title,
      String sha,
      String baseBranch,
      String author,
      String headBranch,
      String hold,
      List<Long> dependsOn) {
    this(title, sha, baseBranch, author, headBranch, hold, dependsOn, List.of(), null);
  }

  public PullRequestInfo(
      String title, String sha, String baseBranch, String author, String headBranch) {
    this(title, sha, baseBranch, author, headBranch, null, List.of());
  }

  /** The same PR, held on the host for {@code why} (a review that blocks it). */
  public PullRequestInfo heldFor(String why) {
    return new PullRequestInfo(
        title, sha, baseBranch, author, headBranch, why, dependsOn, hostDependencies, stackedOn);
  }

  /** What the host says of dependency {@code number}, if the PR was read with it. */
  public java.util.Optional<HostDependency> hostDependency(long number) {
    return hostDependencies.stream().filter(d -> d.number() == number).findFirst();
  }

  public static PullRequestInfo unknown(String targetBranch) {
    return new PullRequestInfo("", "", targetBranch, "", null);
  }
}
