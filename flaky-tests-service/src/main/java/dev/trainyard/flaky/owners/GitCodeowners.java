package dev.trainyard.flaky.owners;

import dev.trainyard.common.git.GitLayout;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.flaky.repo.Repo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * CODEOWNERS as committed in the git adapter's repositories (bare, at {@code
 * <root>/<org>/<host>/<owner>/<name>.git}, located by {@link GitLayout} so an organization reads
 * only its own): the file at a commit, from the first of GitHub's locations that holds one.
 * Whatever is missing — no git root, repository, commit or file, or a file over {@link
 * Codeowners#MAX_FILE_BYTES} — reads as empty, so an upload never fails on it.
 */
public final class GitCodeowners {
  /** Where GitHub looks, in its order. */
  static final List<String> LOCATIONS =
      List.of(".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS");

  private static final Pattern OBJECT_ID = Pattern.compile("[0-9a-f]{40}");
  private static final Logger log = LoggerFactory.getLogger(GitCodeowners.class);
  private final Path root;

  private GitCodeowners(Path root) {
    this.root = root;
  }

  /** Reads from the repositories under {@code root}. */
  public static GitCodeowners under(Path root) {
    return new GitCodeowners(root.toAbsolutePath().normalize());
  }

  /** No git adapter: every read is empty. */
  public static GitCodeowners none() {
    return new GitCodeowners(null);
  }

  /**
   * The CODEOWNERS of organization {@code org}'s {@code repo} at {@code commitSha} (a full
   * hexadecimal object id).
   */
  public Optional<String> at(String org, Repo repo, String commitSha) {
    return atCommit(
        org,
        repo,
        commitSha,
        "CODEOWNERS",
        (git, at) -> {
          for (String location : LOCATIONS) {
            try (TreeWalk file = TreeWalk.forPath(git, location, at.getTree())) {
              if (file == null || (file.getRawMode(0) & FileMode.TYPE_MASK) != FileMode.TYPE_FILE) {
                continue;
              }
              ObjectLoader blob = git.open(file.getObjectId(0));
              if (blob.getSize() > Codeowners.MAX_FILE_BYTES) {
                log.info(
                    "{} of {} at {} is over the 3 MiB limit; ignored",
                    location,
                    repo.key(),
                    at.name());
                return Optional.empty();
              }
              return Optional.of(new String(blob.getBytes(), StandardCharsets.UTF_8));
            }
          }
          return Optional.empty();
        });
  }

  /** What one read takes from a commit of a repository. */
  private interface CommitRead<T> {
    Optional<T> read(Repository git, RevCommit commit) throws IOException;
  }

  /**
   * {@code read} of commit {@code commitSha} (a full hexadecimal object id) of the organization's
   * repository; empty when there is no such repository or commit, or it cannot be read.
   */
  private <T> Optional<T> atCommit(
      String org, Repo repo, String commitSha, String what, CommitRead<T> read) {
    String commit = commitSha == null ? "" : commitSha.toLowerCase(Locale.ROOT);
    Optional<Path> dir = OBJECT_ID.matcher(commit).matches() ? locate(org, repo) : Optional.empty();
    if (dir.isEmpty()) {
      return Optional.empty();
    }
    try (Repository git = open(dir.get());
        RevWalk walk = new RevWalk(git)) {
      return read.read(git, walk.parseCommit(ObjectId.fromString(commit)));
    } catch (MissingObjectException e) {
      return Optional.empty(); // the commit is not in this repository (yet)
    } catch (IOException e) {
      log.warn("could not read {} of {} at {}: {}", what, repo.key(), commit, e.toString());
      return Optional.empty();
    }
  }

  /**
   * The repository's default branch as its {@code HEAD} names it, when the git adapter holds the
   * repository and that branch exists (a bare repository's {@code HEAD} names {@code master} until
   * told otherwise, whatever branches it has).
   */
  public Optional<String> defaultBranch(String org, Repo repo) {
    Optional<Path> dir = locate(org, repo);
    if (dir.isEmpty()) {
      return Optional.empty();
    }
    try (Repository git = open(dir.get())) {
      Ref head = git.exactRef(Constants.HEAD);
      if (head == null || !head.isSymbolic() || head.getObjectId() == null) {
        return Optional.empty();
      }
      return Optional.of(Repository.shortenRefName(head.getTarget().getName()));
    } catch (IOException e) {
      log.warn("could not read the default branch of {}: {}", repo.key(), e.toString());
      return Optional.empty();
    }
  }

  /**
   * When {@code commitSha} was committed, if the git adapter holds it: what orders runs of the
   * target branch by commit (on a branch whose history moves forward, later commits are later).
   */
  public Optional<Instant> commitTime(String org, Repo repo, String commitSha) {
    return atCommit(
        org,
        repo,
        commitSha,
        "the commit's time",
        (git, commit) -> Optional.of(commit.getCommitterIdent().getWhenAsInstant()));
  }

  private Optional<Path> locate(String org, Repo repo) {
    if (root == null) {
      return Optional.empty();
    }
    GitLayout.Location found =
        GitLayout.locate(
            root, new OrgRepo(org, new RepoRef(repo.host(), repo.owner(), repo.name())));
    if (found instanceof GitLayout.Location.Refused refused) {
      log.warn("repository not read: {}", refused.reason());
    }
    return found instanceof GitLayout.Location.Served served
        ? Optional.of(served.path())
        : Optional.empty();
  }

  private static Repository open(Path dir) throws IOException {
    return new FileRepositoryBuilder().setGitDir(dir.toFile()).setMustExist(true).build();
  }
}
