package dev.trainyard.flaky.repo;

import dev.trainyard.flaky.classify.TargetBranch;
import dev.trainyard.flaky.owners.Codeowners;
import java.util.List;

/**
 * A repository's flaky-test settings: its target branch (whose runs the failure-rate rules read;
 * null = not set, see {@link TargetBranch}), whether flaky tests are quarantined automatically, and
 * its CODEOWNERS (the last uploaded).
 */
public record RepoSettings(
    String repoKey, String targetBranch, boolean autoQuarantine, String codeowners) {
  public static RepoSettings defaults(Repo repo) {
    return new RepoSettings(repo.key(), null, false, null);
  }

  public TargetBranch target() {
    return TargetBranch.of(targetBranch);
  }

  /** The owners of {@code path} by the CODEOWNERS, empty without a path or a file. */
  public List<String> owners(Codeowners parsed, String path) {
    return parsed == null || path == null ? List.of() : parsed.owners(path);
  }
}
