package dev.trainyard.worker.scm.git;

import dev.trainyard.common.git.GitLayout;
import dev.trainyard.common.queue.MergeMethod;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.worker.scm.MergeResult;
import dev.trainyard.worker.scm.PullRequestHead;
import dev.trainyard.worker.scm.ScmProvider;
import dev.trainyard.worker.scm.ScmPullRequest;
import dev.trainyard.worker.scm.TestBranchResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ScmProvider} of plain git repositories on disk (the standalone and every e2e test):
 * organization O's repositories are the bare repositories under {@code <root>/<O>/} (API.md §6).
 */
public final class GitScm implements ScmProvider, AutoCloseable {
  private static final String PULL_PREFIX = "refs/pull/";
  private final Path root;
  private final PersonIdent committer;
  private static final Logger log = LoggerFactory.getLogger(GitScm.class);
  private final Map<Path, Repository> open = new ConcurrentHashMap<>();
  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  public GitScm(Path root, PersonIdent committer) {
    this.root = root;
    this.committer = committer;
  }

  @Override
  public boolean serves(OrgRepo repo) {
    return location(repo).isPresent();
  }

  @Override
  public Optional<ScmPullRequest> pullRequest(OrgRepo repo, long number, String targetBranch) {
    return io(
        () -> {
          Repository git = repository(repo);
          Ref head = git.exactRef(PULL_PREFIX + number + "/head");
          if (head == null) {
            return Optional.empty();
          }
          try (RevWalk walk = new RevWalk(git)) {
            RevCommit commit = walk.parseCommit(head.getObjectId());
            return Optional.of(
                new ScmPullRequest(
                    number,
                    commit.name(),
                    null,
                    baseBranch(git, number).orElse(targetBranch),
                    commit.getShortMessage(),
                    commit.getAuthorIdent().getName()));
          }
        });
  }

  @Override
  public Mergeability mergeability(OrgRepo repo, String targetBranch, String headSha) {
    return io(
        () -> {
          Repository git = repository(repo);
          Ref target = git.exactRef(Constants.R_HEADS + targetBranch);
          if (target == null) {
            return Mergeability.NOT_MERGEABLE;
          }
          return InMemoryMerges.merge(git, target.getObjectId(), ObjectId.fromString(headSha))
                  .isPresent()
              ? Mergeability.MERGEABLE
              : Mergeability.NOT_MERGEABLE;
        });
  }

  @Override
  public TestBranchResult buildTestBranch(
      OrgRepo repo,
      String targetBranch,
      String branch,
      String baseSha,
      List<PullRequestHead> prs,
      Instant at) {
    return io(
        () -> {
          Repository git = repository(repo);
          Optional<String> base =
              baseSha != null ? Optional.of(baseSha) : branchHead(repo, targetBranch);
          if (base.isEmpty()) {
            return new TestBranchResult.NoBase("branch " + targetBranch + " does not exist");
          }
          PersonIdent dated = new PersonIdent(committer, Date.from(at));
          ObjectId current = ObjectId.fromString(base.get());
          for (PullRequestHead pr : prs) {
            Optional<ObjectId> merged =
                InMemoryMerges.mergeCommit(
                    git,
                    current,
                    ObjectId.fromString(pr.sha()),
                    "Merge pull request #" + pr.number() + ": " + pr.title(),
                    dated);
            if (merged.isEmpty()) {
              return new TestBranchResult.Conflict(pr.number());
            }
            current = merged.get();
          }
          RefUpdate update = git.updateRef(Constants.R_HEADS + branch);
          update.setNewObjectId(current);
          update.setForceUpdate(true);
          check(update.update(), update);
          return new TestBranchResult.Built(branch, base.get(), current.name());
        });
  }

  @Override
  public MergeResult merge(
      OrgRepo repo,
      String targetBranch,
      String expectedTargetSha,
      String builtOnSha,
      String testedSha,
      MergeMethod method,
      List<PullRequestHead> prs) {
    return io(
        () -> {
          Repository git = repository(repo);
          ObjectId expected = ObjectId.fromString(expectedTargetSha);
          ObjectId tested = ObjectId.fromString(testedSha);
          Optional<String> head = branchHead(repo, targetBranch);
          if (head.isPresent() && !head.get().equals(expectedTargetSha)) {
            ObjectId at = ObjectId.fromString(head.get());
            return InMemoryMerges.landedOn(git, at, tested, expected)
                ? new MergeResult.Merged(head.get())
                : new MergeResult.TargetMoved(head.get());
          }
          if (head.isEmpty()) {
            return new MergeResult.TargetMoved(null);
          }
          PersonIdent now = new PersonIdent(committer, new Date());
          ObjectId builtOn = ObjectId.fromString(builtOnSha);
          Optional<ObjectId> landed =
              switch (method) {
                case MERGE_COMMIT ->
                    expected.equals(builtOn)
                        ? Optional.of(tested)
                        : InMemoryMerges.replay(git, builtOn, tested, expected, prs, false, now);
                case SQUASH ->
                    InMemoryMerges.replay(git, builtOn, tested, expected, prs, true, now);
                case REBASE -> InMemoryMerges.rebase(git, expected, prs, now);
              };
          if (landed.isEmpty()) {
            return new MergeResult.Conflict(prs.isEmpty() ? 0 : prs.get(prs.size() - 1).number());
          }
          RefUpdate update = git.updateRef(Constants.R_HEADS + targetBranch);
          update.setExpectedOldObjectId(expected);
          update.setNewObjectId(landed.get());
          update.setForceUpdate(false);
          RefUpdate.Result result = update.update();
          if (result == RefUpdate.Result.LOCK_FAILURE || result == RefUpdate.Result.REJECTED) {
            return new MergeResult.TargetMoved(branchHead(repo, targetBranch).orElse(null));
          }
          check(result, update);
          return new MergeResult.Merged(landed.get().name());
        });
  }

  @Override
  public void deleteBranch(OrgRepo repo, String branch) {
    io(
        () -> {
          RefUpdate update = repository(repo).updateRef(Constants.R_HEADS + branch);
          update.setForceUpdate(true);
          update.delete();
          return null;
        });
  }

  @Override
  public Optional<String> branchHead(OrgRepo repo, String branch) {
    return io(
        () ->
            Optional.ofNullable(repository(repo).exactRef(Constants.R_HEADS + branch))
                .map(ref -> ref.getObjectId().name()));
  }

  @Override
  public void close() {
    open.values().forEach(Repository::close);
    open.clear();
  }

  /** A PR's base is the queue's branch unless {@code refs/pull/<n>/base} points elsewhere. */
  private static Optional<String> baseBranch(Repository git, long number) throws IOException {
    Ref base = git.exactRef(PULL_PREFIX + number + "/base");
    if (base == null || !base.isSymbolic()) {
      return Optional.empty();
    }
    return Optional.of(Repository.shortenRefName(base.getTarget().getName()));
  }

  /**
   * The repository's folder under {@code <root>/<org>/} ({@link GitLayout}); empty when the
   * organization has none by these names, or when they would lead outside its folder (logged once).
   */
  private Optional<Path> location(OrgRepo repo) {
    GitLayout.Location location = GitLayout.locate(root, repo);
    if (location instanceof GitLayout.Location.Refused refused && warned.add(repo.toString())) {
      log.warn("git repository refused: {}", refused.reason());
    }
    return location instanceof GitLayout.Location.Served served
        ? Optional.of(served.path())
        : Optional.empty();
  }

  private Repository repository(OrgRepo repo) {
    Path dir =
        location(repo)
            .orElseThrow(() -> new UncheckedIOException(new IOException("no repository " + repo)));
    return open.computeIfAbsent(
        dir,
        d -> {
          try {
            return new FileRepositoryBuilder().setGitDir(d.toFile()).setMustExist(true).build();
          } catch (IOException e) {
            throw new UncheckedIOException("no repository at " + d, e);
          }
        });
  }

  private static void check(RefUpdate.Result result, RefUpdate update) throws IOException {
    switch (result) {
      case NEW, FORCED, FAST_FORWARD, NO_CHANGE -> {}
      default -> throw new IOException("could not update " + update.getName() + ": " + result);
    }
  }

  /** A git operation that may fail with an I/O error. */
  private interface GitIo<T> {
    T run() throws IOException;
  }

  private static <T> T io(GitIo<T> operation) {
    try {
      return operation.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
