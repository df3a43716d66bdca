package dev.trainyard.flaky.classify;

import java.util.List;

/**
 * Which runs are target-branch runs (the ones B1, B2, F3 and the target recovery read, and the only
 * ones whose CODEOWNERS become the repository's): runs uploaded without a pull request number on
 * one of {@link #names}. The names are the repository's {@code target_branch} setting; without it
 * the default branch of the repository as the git adapter's copy has it and the target branches of
 * the organization's merge queues on it; without those the conventional {@code main}, {@code
 * master} and {@code develop}. A feature branch pushed without a pull request, a pull request's run
 * (even one on the target's name) and a merge queue's branch ({@code trainyard-merge/…}, GitHub's
 * {@code gh-readonly-queue/…}) are never target runs. Branches are compared without a {@code
 * refs/heads/} prefix, which some CI systems send.
 */
public record TargetBranch(List<String> names) {
  static final List<String> CONVENTIONAL = List.of("main", "master", "develop");
  private static final String HEADS = "refs/heads/";

  public TargetBranch {
    names = names.stream().map(TargetBranch::branchName).toList();
  }

  /** The one branch a repository's setting (or its source host) names. */
  public static TargetBranch of(String name) {
    return new TargetBranch(List.of(name));
  }

  /** Neither a setting nor a default branch known: the conventional names. */
  public static TargetBranch conventional() {
    return new TargetBranch(CONVENTIONAL);
  }

  /** {@code ref} as a branch name: {@code refs/heads/main} is {@code main}. */
  public static String branchName(String ref) {
    return ref != null && ref.startsWith(HEADS) ? ref.substring(HEADS.length()) : ref;
  }

  public boolean matches(String branch, Long prNumber) {
    return prNumber == null && branch != null && names.contains(branchName(branch));
  }

  public boolean matches(Observation run) {
    return matches(run.branch(), run.prNumber());
  }

  /** How a reason names it: {@code main}, or {@code main, master or develop}. */
  public String describe() {
    if (names.size() == 1) {
      return names.get(0);
    }
    return String.join(", ", names.subList(0, names.size() - 1))
        + " or "
        + names.get(names.size() - 1);
  }
}
