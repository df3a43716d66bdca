package dev.trainyard.flaky.classify;

import dev.trainyard.common.queue.TestBranches;

/**
 * Which runs are target-branch runs (the ones B1, B2, F3 and the target recovery read). A
 * repository with {@code target_branch} set names it; one without it has no guessed default (a
 * {@code master} repository would never be classified by its rates): a run is a target-branch run
 * when it was uploaded without a pull request number and not on one of trainyard's own test
 * branches ({@code trainyard-merge/…}, which hold changes not merged yet) — what CI on pushes to
 * the default branch sends.
 */
public record TargetBranch(String name) {
  /** The repository's setting; null = not set (inferred per run). */
  public static TargetBranch of(String configured) {
    return new TargetBranch(configured);
  }

  public static TargetBranch inferred() {
    return new TargetBranch(null);
  }

  public boolean matches(String branch, Long prNumber) {
    if (name != null) {
      return name.equals(branch);
    }
    return prNumber == null && branch != null && !branch.startsWith(TestBranches.PREFIX);
  }

  public boolean matches(Observation run) {
    return matches(run.branch(), run.prNumber());
  }

  /** How a reason names it: the branch, or "the target branch" when inferred. */
  public String describe() {
    return name != null ? name : "the target branch";
  }
}
