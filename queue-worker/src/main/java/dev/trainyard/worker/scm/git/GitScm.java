package dev.trainyard.worker.scm.git;

import dev.trainyard.common.command.QueueCommand.SubmitPullRequest;
import dev.trainyard.common.git.GitLayout;
import dev.trainyard.common.net.OutboundGuard;
import dev.trainyard.common.queue.DependsOnLines;
import dev.trainyard.common.queue.MergeMethod;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.worker.scm.CommitMessages;
import dev.trainyard.worker.scm.MergeResult;
import dev.trainyard.worker.scm.PullRequestHead;
import dev.trainyard.worker.scm.ScmProvider;
import dev.trainyard.worker.scm.ScmPullRequest;
import dev.trainyard.worker.scm.TestBranchResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jgit.internal.storage.file.RefDirectory;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ScmProvider} of plain git repositories (API.md §6): organization O's repositories are
 * the remotes O registered ({@link GitRemotes}, mirrored under the git cache) and the bare
 * repositories under {@code <root>/<O>/}; a registered remote wins over a folder of the same name.
 * Commits are built in the local repository or mirror; refs move only with the value they are
 * expected to replace, so a target someone else moved is never overwritten.
 */
public final class GitScm implements ScmProvider, AutoCloseable {
  /** A base that is another PR's head: {@code refs/pull/<m>/head}. */
  private static final Pattern STACKED_BASE = Pattern.compile("refs/pull/([0-9]{1,10})/head");

  private static final String PULL_PREFIX = "refs/pull/";

  /**
   * How long a repository found under the git root is remembered: every call of a poller's round
   * asks where it is ({@link #serves} and each read), and finding it resolves three real paths.
   */
  private static final long FOUND_FOR_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** Past this many remembered, those no longer fresh are dropped (a bound on the map). */
  private static final int FOUND_AT_MOST = 10_000;

  private static final Logger log = LoggerFactory.getLogger(GitScm.class);
  private final Path root;
  private final Path cache;
  private final GitRemotes remotes;
  private final OutboundGuard guard;
  private final PersonIdent committer;
  private final Map<Path, LocalPlace> local = new ConcurrentHashMap<>();
  private final Map<String, RemoteMirror> mirrors = new ConcurrentHashMap<>();
  private final Set<String> warned = ConcurrentHashMap.newKeySet();
  private final Map<OrgRepo, Found> found = new ConcurrentHashMap<>();

  /** A repository found served at {@code path}, remembered until {@code until} (nano time). */
  private record Found(Path path, long until) {}

  /**
   * @param root the git root (null: no local repositories)
   * @param cache where remote repositories are mirrored
   * @param guard what remote URLs may reach, checked before every connection
   */
  public GitScm(
      Path root, Path cache, GitRemotes remotes, OutboundGuard guard, PersonIdent committer) {
    this.root = root;
    this.cache = cache;
    this.remotes = remotes;
    this.guard = guard;
    this.committer = committer;
  }

  /** Only the repositories under {@code root} (tests, tools). */
  public GitScm(Path root, PersonIdent committer) {
    this(root, null, GitRemotes.NONE, null, committer);
  }

  @Override
  public boolean serves(OrgRepo repo) {
    return remotes.find(repo).isPresent() || location(repo).isPresent();
  }

  @Override
  public void readAhead(Collection<OrgRepo> repos) {
    remotes.readAhead(repos);
  }

  /** A notify reads the repository's registration again: it may have just been set or fixed. */
  @Override
  public void hostChanged(OrgRepo repo) {
    remotes.notified(repo);
  }

  @Override
  public void fetch(OrgRepo repo) {
    io(
        () -> {
          place(repo).sync();
          return null;
        });
  }

  /**
   * A digest of every ref of the repository (its mirror, for a remote): a PR's head, its base ref
   * and the target branch are all refs, and the commits they name never change, so whatever the
   * poller reads of a plain git repository changes only with it.
   */
  @Override
  public Optional<String> refsVersion(OrgRepo repo) {
    return io(
        () -> {
          List<Ref> refs =
              new ArrayList<>(place(repo).repository().getRefDatabase().getRefsByPrefix("refs/"));
          refs.sort(Comparator.comparing(Ref::getName));
          // each ref as: its name and NUL (no ref name holds one), its target's the same way when
          // it is symbolic (a PR's base ref names its base branch), whether it names a commit and
          // that commit's id, raw: a round digests every ref of every repository it polls
          MessageDigest digest = sha256();
          byte[] raw = new byte[Constants.OBJECT_ID_LENGTH];
          for (Ref ref : refs) {
            digest.update(ref.getName().getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
            digest.update((byte) (ref.isSymbolic() ? 1 : 0));
            if (ref.isSymbolic()) {
              digest.update(ref.getTarget().getName().getBytes(StandardCharsets.UTF_8));
              digest.update((byte) 0);
            }
            ObjectId id = ref.getObjectId();
            digest.update((byte) (id == null ? 0 : 1));
            if (id != null) {
              id.copyRawTo(raw, 0);
              digest.update(raw);
            }
          }
          return Optional.of(HexFormat.of().formatHex(digest.digest()));
        });
  }

  /**
   * What {@code read} answers for PR {@code number}'s head commit and its base branch; empty
   * without its head ref. Both refs are found by one scan of the PR's folder: most PRs have no base
   * ref, and a ref looked up by a name that is not there costs JGit an exception (a poller's round
   * looks up every PR that changed, and a PR submitted before its push has no head either). A base
   * the scan leaves out because its target is gone is read on its own ({@link #mayHoldBrokenRef}).
   */
  private <T> Optional<T> withPullHead(OrgRepo repo, long number, PullHeadReader<T> read) {
    return io(
        () -> {
          Repository git = place(repo).repository();
          String folder = PULL_PREFIX + number + "/";
          Ref head = null;
          Ref base = null;
          for (Ref ref : git.getRefDatabase().getRefsByPrefix(folder)) {
            if (ref.getName().equals(folder + "head")) {
              head = ref;
            } else if (ref.getName().equals(folder + "base")) {
              base = ref;
            }
          }
          if (head == null || head.getObjectId() == null) {
            return Optional.empty();
          }
          if (base == null && mayHoldBrokenRef(git, folder + "base")) {
            base = git.exactRef(folder + "base");
          }
          try (RevWalk walk = new RevWalk(git)) {
            RevCommit commit = walk.parseCommit(head.getObjectId());
            return Optional.of(read.read(git, walk, commit, baseBranch(base)));
          }
        });
  }

  /**
   * Whether {@code name} may be a symbolic ref a listing left out: JGit drops a symbolic ref whose
   * target is gone (a PR stacked on one closed: its base names the deleted head), and only an exact
   * look-up reads it. Such a ref is a loose file (packed refs hold no symbolic ones); without one
   * there is none to look up, except in a ref database of another kind.
   */
  private static boolean mayHoldBrokenRef(Repository git, String name) {
    return !(git.getRefDatabase() instanceof RefDirectory)
        || Files.isRegularFile(git.getDirectory().toPath().resolve(name));
  }

  private interface PullHeadReader<T> {
    T read(Repository git, RevWalk walk, RevCommit head, Optional<String> base) throws IOException;
  }

  @Override
  public Optional<ScmPullRequest> pullRequest(OrgRepo repo, long number, String targetBranch) {
    return withPullHead(
        repo,
        number,
        (git, walk, commit, base) ->
            new ScmPullRequest(
                number,
                commit.name(),
                null,
                base.orElse(targetBranch),
                commit.getShortMessage(),
                commit.getAuthorIdent().getName(),
                null,
                null,
                DependsOnLines.parse(commit.getFullMessage(), SubmitPullRequest.MAX_DEPENDS_ON),
                base.flatMap(GitScm::stackedOn).orElse(null)));
  }

  /**
   * The PR a base names when it is another PR's head ({@code refs/pull/<n>/base} a symbolic ref to
   * {@code refs/pull/<m>/head}: PR n is stacked on m).
   */
  private static Optional<Long> stackedOn(String base) {
    Matcher m = STACKED_BASE.matcher(base);
    return m.matches() ? Optional.of(Long.parseLong(m.group(1))) : Optional.empty();
  }

  /**
   * A plain git repository knows a PR only as {@code refs/pull/<n>/head}: merged when the target
   * holds that head (landed by hand, or by another queue into it), else open on its base branch
   * (the {@code refs/pull/<n>/base} ref, when there is one); empty when there is no such PR.
   */
  @Override
  public Optional<dev.trainyard.common.command.HostDependency> dependency(
      OrgRepo repo, long number, String targetBranch) {
    return withPullHead(
        repo,
        number,
        (git, walk, head, base) -> {
          Ref target = git.exactRef(Constants.R_HEADS + targetBranch);
          boolean merged =
              target != null && walk.isMergedInto(head, walk.parseCommit(target.getObjectId()));
          return new dev.trainyard.common.command.HostDependency(
              number, merged, !merged, base.orElse(null));
        });
  }

  @Override
  public Mergeability mergeability(OrgRepo repo, String targetBranch, String headSha) {
    return io(
        () -> {
          Repository git = place(repo).repository();
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
      Instant at,
      CommitMessages messages) {
    return io(
        () -> {
          GitPlace place = place(repo);
          place.sync();
          Repository git = place.repository();
          Optional<String> base = baseSha != null ? Optional.of(baseSha) : head(git, targetBranch);
          if (base.isEmpty()) {
            return new TestBranchResult.NoBase("branch " + targetBranch + " does not exist");
          }
          PersonIdent dated = new PersonIdent(committer, Date.from(at));
          ObjectId current = ObjectId.fromString(base.get());
          for (PullRequestHead pr : prs) {
            ObjectId onto = current;
            Optional<ObjectId> merged =
                InMemoryMerges.mergeCommit(
                    git,
                    current,
                    ObjectId.fromString(pr.sha()),
                    InMemoryMerges.signed(
                        messages.render(
                            repo, targetBranch, pr, () -> PullRequestTexts.read(git, onto, pr)),
                        branch.substring(branch.lastIndexOf('/') + 1)),
                    dated);
            if (merged.isEmpty()) {
              return new TestBranchResult.Conflict(pr.number());
            }
            current = merged.get();
          }
          if (place.update(Constants.R_HEADS + branch, null, current) != GitPlace.Update.MOVED) {
            throw new IOException("could not write test branch " + branch);
          }
          // every head was merged into the commit built here, one on top of the other
          return new TestBranchResult.Built(
              branch, base.get(), current.name(), prs.stream().map(PullRequestHead::sha).toList());
        });
  }

  private static final String REBASE_DROPS_MERGES =
      "rebasing its commits drops the merge commits of its branch, and with them a change or a"
          + " conflict's resolution the tested tree holds; land it with merge_commit or squash, or"
          + " rebase the branch without merge commits";

  @Override
  public MergeResult merge(
      OrgRepo repo,
      String targetBranch,
      String expectedTargetSha,
      String builtOnSha,
      String testedSha,
      MergeMethod method,
      List<PullRequestHead> prs,
      CommitMessages messages) {
    return io(
        () -> {
          GitPlace place = place(repo);
          Repository git = place.repository();
          ObjectId expected = ObjectId.fromString(expectedTargetSha);
          ObjectId tested = ObjectId.fromString(testedSha);
          Optional<String> head = head(git, targetBranch);
          if (head.isEmpty()) {
            return new MergeResult.TargetMoved(null);
          }
          if (!head.get().equals(expectedTargetSha)) {
            return movedOrLanded(git, head.get(), tested, expected);
          }
          PersonIdent now = new PersonIdent(committer, new Date());
          ObjectId builtOn = ObjectId.fromString(builtOnSha);
          long last = prs.isEmpty() ? 0 : prs.get(prs.size() - 1).number();
          Optional<ObjectId> landed;
          if (method == MergeMethod.REBASE) {
            InMemoryMerges.Rebased rebased =
                InMemoryMerges.rebase(git, builtOn, tested, expected, prs, now);
            if (rebased instanceof InMemoryMerges.Rebased.Conflicted c) {
              return new MergeResult.Conflict(c.prNumber());
            }
            if (rebased instanceof InMemoryMerges.Rebased.Differs d) {
              return new MergeResult.TreeDiffers(d.prNumber(), REBASE_DROPS_MERGES);
            }
            landed = Optional.of(((InMemoryMerges.Rebased.Done) rebased).tip());
          } else {
            landed =
                method == MergeMethod.MERGE_COMMIT && expected.equals(builtOn)
                    ? Optional.of(tested)
                    : InMemoryMerges.replay(
                        git,
                        builtOn,
                        tested,
                        expected,
                        prs,
                        method == MergeMethod.SQUASH
                            ? pr ->
                                messages.render(
                                    repo,
                                    targetBranch,
                                    pr,
                                    () -> PullRequestTexts.read(git, expected, pr))
                            : null,
                        now);
          }
          if (landed.isEmpty()) {
            return new MergeResult.Conflict(last);
          }
          if (expected.equals(builtOn)
              && !InMemoryMerges.parse(git, landed.get())
                  .getTree()
                  .equals(InMemoryMerges.parse(git, tested).getTree())) {
            return new MergeResult.TreeDiffers(
                last, "the commit it would land is not the tested tree");
          }
          if (place.update(Constants.R_HEADS + targetBranch, expected, landed.get())
              == GitPlace.Update.REFUSED) {
            // moved since we looked: by someone else, or by our own earlier attempt
            place.sync();
            Optional<String> now2 = head(git, targetBranch);
            if (now2.isPresent() && now2.get().equals(expectedTargetSha)) {
              // refused, yet nobody moved it (a held lock, or the server's refusal): answering
              // that the target moved would rebuild every run, after each pass, for as long as
              // the cause stays; failing has the landing tried again
              throw new IOException(
                  targetBranch
                      + " is still at "
                      + expectedTargetSha
                      + " but the update was refused (a lock is held, or the server refused it);"
                      + " the landing is tried again");
            }
            return now2.isEmpty()
                ? new MergeResult.TargetMoved(null)
                : movedOrLanded(git, now2.get(), tested, expected);
          }
          return new MergeResult.Merged(landed.get().name());
        });
  }

  @Override
  public Optional<String> landing(
      OrgRepo repo,
      String targetBranch,
      String expectedTargetSha,
      String testedSha,
      List<PullRequestHead> prs) {
    return io(
        () -> {
          Repository git = place(repo).repository();
          Optional<String> head = head(git, targetBranch);
          if (head.isEmpty() || head.get().equals(expectedTargetSha)) {
            return Optional.empty();
          }
          return InMemoryMerges.landedSince(
                  git,
                  ObjectId.fromString(head.get()),
                  ObjectId.fromString(testedSha),
                  ObjectId.fromString(expectedTargetSha))
              .map(ObjectId::name);
        });
  }

  @Override
  public void deleteBranch(OrgRepo repo, String branch) {
    io(
        () -> {
          place(repo).delete(Constants.R_HEADS + branch);
          return null;
        });
  }

  @Override
  public Optional<String> containedTarget(OrgRepo repo, String targetBranch, String headSha) {
    return io(
        () -> {
          Repository git = place(repo).repository();
          Optional<String> target = head(git, targetBranch);
          if (target.isEmpty()) {
            return target;
          }
          try (RevWalk walk = new RevWalk(git)) {
            RevCommit base = walk.parseCommit(ObjectId.fromString(target.get()));
            RevCommit head = walk.parseCommit(ObjectId.fromString(headSha));
            return walk.isMergedInto(base, head) ? target : Optional.<String>empty();
          }
        });
  }

  @Override
  public Optional<String> branchHead(OrgRepo repo, String branch) {
    return io(() -> head(place(repo).repository(), branch));
  }

  @Override
  public void close() {
    local.values().forEach(GitPlace::close);
    local.clear();
    mirrors.values().forEach(GitPlace::close);
    mirrors.clear();
  }

  private static MergeResult movedOrLanded(
      Repository git, String head, ObjectId tested, ObjectId expected) throws IOException {
    return InMemoryMerges.landedSince(git, ObjectId.fromString(head), tested, expected)
        .<MergeResult>map(landed -> new MergeResult.Merged(landed.name()))
        .orElseGet(() -> new MergeResult.TargetMoved(head));
  }

  private static Optional<String> head(Repository git, String branch) throws IOException {
    return Optional.ofNullable(git.exactRef(Constants.R_HEADS + branch))
        .map(ref -> ref.getObjectId().name());
  }

  /** A PR's base is the queue's branch unless its {@code refs/pull/<n>/base} names another. */
  private static Optional<String> baseBranch(Ref base) {
    if (base == null || !base.isSymbolic()) {
      return Optional.empty();
    }
    return Optional.of(Repository.shortenRefName(base.getTarget().getName()));
  }

  /**
   * The repository's folder under {@code <root>/<org>/} ({@link GitLayout}); empty when the
   * organization has none by these names, or when they would lead outside its folder (logged once).
   * One found is remembered for {@link #FOUND_FOR_NANOS} (its repository, once opened, stays open
   * anyway); one not found is looked for again at the next call, so a repository created is served
   * at once.
   */
  private Optional<Path> location(OrgRepo repo) {
    if (root == null) {
      return Optional.empty();
    }
    long now = System.nanoTime();
    Found last = found.get(repo);
    if (last != null && now - last.until() < 0) {
      return Optional.of(last.path());
    }
    GitLayout.Location location = GitLayout.locate(root, repo);
    if (location instanceof GitLayout.Location.Refused refused && warned.add(repo.toString())) {
      log.warn("git repository refused: {}", refused.reason());
    }
    if (location instanceof GitLayout.Location.Served served) {
      if (found.size() >= FOUND_AT_MOST) {
        found.values().removeIf(f -> now - f.until() >= 0);
        if (found.size() >= FOUND_AT_MOST) { // all fresh: start again rather than scan at each call
          found.clear();
        }
      }
      found.put(repo, new Found(served.path(), now + FOUND_FOR_NANOS));
      return Optional.of(served.path());
    }
    found.remove(repo);
    return Optional.empty();
  }

  /** The remote's mirror (rebuilt when its registration changed), else the local repository. */
  private GitPlace place(OrgRepo repo) throws IOException {
    Optional<RemoteAccess> remote = remotes.find(repo);
    if (remote.isPresent()) {
      return mirror(repo, remote.get());
    }
    Path dir =
        location(repo).orElseThrow(() -> new IOException("no source host serves " + repo.repo()));
    LocalPlace place = local.get(dir);
    if (place == null) {
      LocalPlace opened = new LocalPlace(dir);
      place = local.putIfAbsent(dir, opened);
      if (place == null) {
        place = opened;
      } else {
        opened.close();
      }
    }
    return place;
  }

  private synchronized RemoteMirror mirror(OrgRepo repo, RemoteAccess access) throws IOException {
    RemoteMirror current = mirrors.get(repo.toString());
    if (current != null && current.access().equals(access)) {
      return current;
    }
    if (cache == null) {
      throw new IOException("no git cache is configured for remote repositories");
    }
    RemoteMirror fresh =
        new RemoteMirror(mirrorDir(repo), access, guard, remotes.hostKeys(repo, access));
    mirrors.put(repo.toString(), fresh);
    if (current != null) {
      current.close();
    }
    return fresh;
  }

  /** {@code <cache>/<org>/<host>/<owner>/<name>.git}: names were checked as path segments. */
  private Path mirrorDir(OrgRepo repo) throws IOException {
    Path org = cache.resolve(repo.org()).normalize();
    Path dir =
        org.resolve(repo.repo().host())
            .resolve(repo.repo().owner())
            .resolve(repo.repo().name() + ".git")
            .normalize();
    if (!org.startsWith(cache.normalize()) || !dir.startsWith(org)) {
      throw new IOException(repo + " has a name that is not one plain path segment");
    }
    return dir;
  }

  /** A git operation that may fail with an I/O error. */
  private interface GitIo<T> {
    T run() throws IOException;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  private static <T> T io(GitIo<T> operation) {
    try {
      return operation.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
