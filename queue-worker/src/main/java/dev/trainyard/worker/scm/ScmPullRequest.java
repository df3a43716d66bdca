package dev.trainyard.worker.scm;

import dev.trainyard.common.queue.Mergeability;
import java.util.List;

/**
 * A pull request as its source host reports it. {@code headBranch} is null where the host does not
 * name it (a plain git mirror has only {@code refs/pull/<n>/head}); {@code mergeability} is null
 * where the host does not report it with the PR, and then {@link ScmProvider#mergeability} computes
 * it. {@code hold}: what keeps the host from merging it beyond conflicts (a draft, a review its
 * protection requires), in one clause; null when nothing does. {@code dependsOn}: the PRs its
 * {@code Depends-On: #n} lines name ({@link dev.trainyard.common.queue.DependsOnLines}).
 */
public record ScmPullRequest(
    long number,
    String headSha,
    String headBranch,
    String baseBranch,
    String title,
    String author,
    Mergeability mergeability,
    String hold,
    List<Long> dependsOn,
    Long stackedOn) {
  public ScmPullRequest {
    List<Long> all = new java.util.ArrayList<>(dependsOn == null ? List.of() : dependsOn);
    if (stackedOn != null && !all.contains(stackedOn)) {
      all.add(stackedOn); // a stacked PR lands after the PR it is stacked on
    }
    dependsOn = List.copyOf(all);
  }
}
