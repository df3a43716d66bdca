package dev.trainyard.common.queue;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Identifies one queue: organization, repository and target branch. Its text form {@code
 * org/host/owner/name:branch} is the Kafka key of every command of the queue and the id of its
 * aggregate document, so one queue is always handled by one partition and one writer.
 */
public record QueueKey(String org, RepoRef repo, String branch) {
  public QueueKey {
    Objects.requireNonNull(org, "org");
    Objects.requireNonNull(repo, "repo");
    Objects.requireNonNull(branch, "branch");
  }

  public static QueueKey of(String org, String host, String owner, String name, String branch) {
    return new QueueKey(org, new RepoRef(host, owner, name), branch);
  }

  /** The queue's repository as its organization names it. */
  public OrgRepo orgRepo() {
    return new OrgRepo(org, repo);
  }

  /** The key as text; the validated parts never contain control characters. */
  public String id() {
    return org + "/" + repo.host() + "/" + repo.owner() + "/" + repo.name() + ":" + branch;
  }

  /**
   * A regular expression matching the ids of {@code org}'s queues on {@code repo} (they share a
   * prefix), its owner and name compared without case when {@code anyCase}: GitHub's names are
   * case-insensitive. The organization and host always match exactly, so no spelling reaches
   * another organization's queues.
   */
  public static String repositoryIdPattern(String org, RepoRef repo, boolean anyCase) {
    String prefix = of(org, repo.host(), repo.owner(), repo.name(), "").id();
    String exact = org + "/" + repo.host() + "/"; // the part of the id never folded
    return anyCase
        ? "^" + Pattern.quote(exact) + "(?i)" + Pattern.quote(prefix.substring(exact.length()))
        : "^" + Pattern.quote(prefix);
  }

  /** The target branch of the queue whose {@link #id} is {@code id}. */
  public static String branchOf(String id) {
    return id.substring(id.lastIndexOf(':') + 1);
  }

  @Override
  public String toString() {
    return id();
  }
}
