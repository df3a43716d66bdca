package dev.trainyard.flaky.owners;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.flaky.repo.Repo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** CODEOWNERS read from real git repositories laid out as the git adapter keeps them. */
class GitCodeownersTest {
  private static final String ORG = "acme-org";
  private static final Repo REPO = new Repo("github.com", "acme", "shop");
  @TempDir Path root;
  @TempDir Path work;

  /**
   * Commits {@code files} (path → content) to the repository at {@code
   * <root>/acme-org/github.com/acme/shop.git}.
   */
  private String commit(Map<String, String> files) throws IOException, GitAPIException {
    try (Git git =
        Git.init()
            .setDirectory(work.toFile())
            .setGitDir(root.resolve(ORG + "/github.com/acme/shop.git").toFile())
            .call()) {
      for (Map.Entry<String, String> f : files.entrySet()) {
        Path file = work.resolve(f.getKey());
        Files.createDirectories(file.getParent());
        Files.writeString(file, f.getValue());
      }
      git.add().addFilepattern(".").call();
      RevCommit commit =
          git.commit().setMessage("files").setAuthor("carol", "carol@example.com").call();
      return commit.name();
    }
  }

  @ParameterizedTest(name = "{0} present → read from {1}")
  @CsvSource({
    ".github/CODEOWNERS CODEOWNERS docs/CODEOWNERS, .github/CODEOWNERS",
    "CODEOWNERS docs/CODEOWNERS, CODEOWNERS",
    "docs/CODEOWNERS, docs/CODEOWNERS",
  })
  void theFirstOfGitHubsLocationsWins(String present, String expected) throws Exception {
    Map<String, String> files = new java.util.HashMap<>(Map.of("README", "hello\n"));
    for (String location : present.split(" ")) {
      files.put(location, "* @owner-of-" + location + "\n");
    }
    String sha = commit(files);

    assertThat(GitCodeowners.under(root).at(ORG, REPO, sha))
        .contains("* @owner-of-" + expected + "\n");
  }

  @Test
  void theDefaultBranchIsWhatHeadNamesWhenThatBranchExists() throws Exception {
    GitCodeowners git = GitCodeowners.under(root);
    assertThat(git.defaultBranch(ORG, REPO)).as("no repository").isEmpty();
    String sha = commit(Map.of("README", "hello\n"));
    Path dir = root.resolve(ORG + "/github.com/acme/shop.git");
    try (Git repo = Git.open(dir.toFile())) {
      RefUpdate trunk = repo.getRepository().updateRef("refs/heads/trunk");
      trunk.setNewObjectId(ObjectId.fromString(sha));
      trunk.forceUpdate();
      repo.getRepository().updateRef(Constants.HEAD).link("refs/heads/trunk");
      assertThat(git.defaultBranch(ORG, REPO)).contains("trunk");

      repo.getRepository().updateRef(Constants.HEAD).link("refs/heads/develop");
      assertThat(git.defaultBranch(ORG, REPO))
          .as("HEAD names a branch that is not there")
          .isEmpty();
    }
  }

  @Test
  void aCommitIsReadAsItWasNotAsTheBranchIsNow() throws Exception {
    String first = commit(Map.of("CODEOWNERS", "* @first\n"));
    String second = commit(Map.of("CODEOWNERS", "* @second\n"));

    GitCodeowners git = GitCodeowners.under(root);
    assertThat(git.at(ORG, REPO, first)).contains("* @first\n");
    assertThat(git.at(ORG, REPO, second)).contains("* @second\n");
    assertThat(git.at(ORG, REPO, first.toUpperCase(Locale.ROOT)))
        .as("in capitals")
        .contains("* @first\n");
  }

  @Test
  void aDirectoryNamedCodeownersIsNotTheFile() throws Exception {
    String sha = commit(Map.of(".github/CODEOWNERS/README", "not it\n", "CODEOWNERS", "* @root\n"));

    assertThat(GitCodeowners.under(root).at(ORG, REPO, sha)).contains("* @root\n");
  }

  @Test
  void aFileOverThreeMebibytesIsIgnoredAsGitHubIgnoresIt() throws Exception {
    String big = "* @someone\n".repeat(Codeowners.MAX_FILE_BYTES / 11 + 1);
    assertThat(big.getBytes(StandardCharsets.UTF_8).length)
        .isGreaterThan(Codeowners.MAX_FILE_BYTES);
    String sha = commit(Map.of("CODEOWNERS", big));

    assertThat(GitCodeowners.under(root).at(ORG, REPO, sha)).isEmpty();
  }

  @Test
  void whatIsMissingReadsAsEmpty() throws Exception {
    String sha = commit(Map.of("README", "no owners here\n"));
    String unknown = "0123456789abcdef0123456789abcdef01234567";
    GitCodeowners git = GitCodeowners.under(root);

    assertThat(git.at(ORG, REPO, sha)).as("no file").isEmpty();
    assertThat(git.at(ORG, REPO, unknown)).as("a commit the repository lacks").isEmpty();
    assertThat(git.at(ORG, REPO, sha.substring(0, 12))).as("an abbreviated id").isEmpty();
    assertThat(git.at(ORG, REPO, "main")).as("a branch name is not a commit").isEmpty();
    assertThat(git.at(ORG, REPO, null)).as("no commit").isEmpty();
    assertThat(git.at(ORG, new Repo("github.com", "acme", "other"), sha))
        .as("no repository")
        .isEmpty();
    assertThat(GitCodeowners.none().at(ORG, REPO, sha)).as("no git root").isEmpty();
  }

  @Test
  void aRepositoryNameCannotLeaveTheOrganizationsFolder() throws Exception {
    String sha = commit(Map.of("CODEOWNERS", "* @secret\n"));
    GitCodeowners git = GitCodeowners.under(root);

    assertThat(git.at("other-org", REPO, sha)).as("another organization, same names").isEmpty();
    assertThat(git.at("other-org", new Repo("..", ORG, "github.com"), sha)).isEmpty();
    assertThat(git.at(ORG, new Repo("..", "..", "acme/shop"), sha)).isEmpty();
    Path link = Files.createDirectories(root.resolve("other-org/github.com/acme"));
    Files.createSymbolicLink(
        link.resolve("shop.git"), root.resolve(ORG + "/github.com/acme/shop.git"));
    assertThat(git.at("other-org", REPO, sha)).as("a link into acme-org's folder").isEmpty();
    assertThat(git.at(ORG, REPO, sha)).contains("* @secret\n");
  }
}
