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
  /** A path no rule names but a catch-all ({@code *}). */
  private static final String NOWHERE = "\u0000/\u0000";

  public static RepoSettings defaults(Repo repo) {
    return new RepoSettings(repo.key(), null, false, null);
  }

  /**
   * The target branch: the setting, else {@code hostDefault} (the repository's default branch as
   * the git adapter's copy has it, when it holds one) and the target branches of the organization's
   * merge queues on the repository, else the conventional names.
   */
  public TargetBranch target(Optional<String> hostDefault, List<String> queueTargets) {
    if (targetBranch != null) {
      return TargetBranch.of(targetBranch);
    }
    List<String> names =
        java.util.stream.Stream.concat(hostDefault.stream(), queueTargets.stream())
            .distinct()
            .toList();
    return names.isEmpty() ? TargetBranch.conventional() : new TargetBranch(names);
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
    if (path == null) {
      return List.of();
    }
    List<String> owners = parsed.owners(path);
    String kotlin = SourcePath.kotlin(path);
    if (kotlin != null && owners.equals(parsed.owners(NOWHERE))) {
      // a class name does not say Java or Kotlin: when no rule but the catch-all names the Java
      // source, a rule naming the Kotlin one (src/test/kotlin) decides
      return parsed.owners(kotlin);
    }
    return owners;
  }
}
