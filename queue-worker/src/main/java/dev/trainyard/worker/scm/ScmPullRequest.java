package dev.trainyard.worker.scm;

/**
 * A pull request as its source host reports it. {@code headBranch} is null where the host does not
 * name it (a plain git mirror has only {@code refs/pull/<n>/head}).
 */
public record ScmPullRequest(
    long number,
    String headSha,
    String headBranch,
    String baseBranch,
    String title,
    String author) {}
