package dev.trainyard.flaky.repo;

import dev.trainyard.flaky.cases.TestCase;
import dev.trainyard.flaky.classify.TargetBranch;
import dev.trainyard.flaky.owners.Codeowners;
import dev.trainyard.flaky.owners.SourcePath;
import java.util.List;
import java.util.Optional;

/**
 * A repository's flaky-test settings: its target branch (whose runs the failure-rate rules read;
 * null = not set: the source host's default branch or a conventional name, see {@link
 * TargetBranch}), whether flaky tests are quarantined automatically, and its CODEOWNERS (the last
 * uploaded).
 */
public record RepoSettings(
    String repoKey, String targetBranch, boolean autoQuarantine, String codeowners) {
  public static RepoSettings defaults(Repo repo) {
    return new RepoSettings(repo.key(), null, false, null);
  }

  /**
   * The target branch: the setting, else {@code hostDefault} (the repository's default branch as
   * the source host has it, when known), else the conventional names.
   */
  public TargetBranch target(Optional<String> hostDefault) {
    if (targetBranch != null) {
      return TargetBranch.of(targetBranch);
    }
    return hostDefault.map(TargetBranch::of).orElseGet(TargetBranch::conventional);
  }

  /**
   * The owners of test case {@code tc} by the CODEOWNERS (its path as {@link SourcePath} derives
   * it), empty without a path or a file.
   */
  public List<String> owners(Codeowners parsed, TestCase tc) {
    if (parsed == null) {
      return List.of();
    }
    String repoName = repoKey.substring(repoKey.lastIndexOf('/') + 1);
    String path = SourcePath.of(tc.filePath(), tc.classname(), tc.parent(), repoName);
    return path == null ? List.of() : parsed.owners(path);
  }
}
