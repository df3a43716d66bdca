package dev.trainyard.worker.scm.github;

import dev.trainyard.worker.scm.git.BareRepo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.merge.MergeStrategy;
import org.eclipse.jgit.merge.ResolveMerger;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * One repository of the {@link GithubSimulator}: a real bare repository (refs and merges are real
 * git, as on GitHub), its pull requests, check runs and comments. Synchronized: GitHub serializes
 * writes to a repository's refs.
 */
public final class SimulatedRepository {
  static final PersonIdent GITHUB = new PersonIdent("GitHub", "noreply@github.com");

  /** Its name as created or last renamed; GitHub's answers carry it. */
  volatile String fullName;

  /** GitHub's id of the repository: it stays the same through renames and transfers. */
  final long id = REPOSITORY_IDS.incrementAndGet();

  final BareRepo git;
  final Map<Long, PullRequest> pulls = new ConcurrentHashMap<>();
  final List<CheckRun> checkRuns = new CopyOnWriteArrayList<>();
  final List<Comment> comments = new CopyOnWriteArrayList<>();
  final Map<String, String> permissions = new ConcurrentHashMap<>();

  /** Classic branch protection's required status checks, by branch. */
  final Map<String, List<String>> protection = new ConcurrentHashMap<>();

  /** The required checks of an active ruleset that targets the branch, by branch. */
  final Map<String, List<String>> rulesets = new ConcurrentHashMap<>();

  /**
   * Further rules of active rulesets, by branch: a rule type ({@code required_linear_history},
   * {@code merge_queue}, {@code pull_request}) and its parameters.
   */
  final Map<String, Map<String, Map<String, Object>>> branchRules = new ConcurrentHashMap<>();

  /**
   * Whether the App may read administration settings: classic protection's strict flag ({@code GET
   * /branches/{b}/protection/required_status_checks}) answers 403 otherwise.
   */
  volatile boolean administrationRead;

  /** Rules of other rulesets on a branch (see {@link #otherRulesets}), by branch. */
  final Map<String, Integer> otherRules = new ConcurrentHashMap<>();

  /** Branches whose required checks are strict: a PR's head must contain the branch's. */
  final Set<String> upToDate = ConcurrentHashMap.newKeySet();

  /**
   * Merge calls answered 405 "Base branch was modified" after a pull request's merge moved a
   * branch, by branch: GitHub recomputes the mergeability of the PRs onto it meanwhile (see {@link
   * #raceAfterEachMerge}).
   */
  final Map<String, Integer> pendingRaces = new ConcurrentHashMap<>();

  /** How many merge calls each merge of a pull request makes race ({@link #pendingRaces}). */
  volatile int racesPerMerge;

  /** What happens while GitHub answers a race (someone pushing meanwhile); null: nothing. */
  volatile Runnable duringRace;

  /** Branches whose ref only a bypass may move: the 422 message GitHub gives anyone else. */
  final Map<String, String> protectedRefs = new ConcurrentHashMap<>();

  /**
   * Merge methods the repository's settings disable ({@code squash}, {@code rebase}, {@code
   * merge}).
   */
  final Set<String> disabledMergeMethods = ConcurrentHashMap.newKeySet();

  /** How many times each ref was created, moved or deleted: each is one push CI sees. */
  final Map<String, Integer> refWrites = new ConcurrentHashMap<>();

  /** The repository's labels. */
  final Set<String> labels = ConcurrentHashMap.newKeySet();

  /** The labels on each issue or pull request. */
  final Map<Long, Set<String>> issueLabels = new ConcurrentHashMap<>();

  /** Every change of a PR's labels, in order: the PR and the labels it then had. */
  final List<Labeled> labelLog = new CopyOnWriteArrayList<>();

  /** Commit statuses by commit, newest last. */
  final Map<String, List<CommitStatus>> statuses = new ConcurrentHashMap<>();

  private final AtomicLong numbers = new AtomicLong();

  /** A pull request from a branch of the same repository. */
  public static final class PullRequest {
    final long number;
    final String headBranch;
    volatile String base;
    volatile String title;
    final String user;
    volatile boolean open = true;
    volatile String mergedAs;

    /** Its head when its branch was deleted: GitHub still shows it as the PR's {@code head.sha}. */
    volatile String deletedHead;

    /** What GitHub's mergeability says beyond conflicts ({@code blocked}: a required review). */
    volatile String blockedBy;

    /**
     * GitHub's {@code reviewDecision} ({@code APPROVED}, {@code CHANGES_REQUESTED}, {@code
     * REVIEW_REQUIRED}); null: the branch asks for no review.
     */
    volatile String reviewDecision;

    String reviewDecision() {
      return reviewDecision;
    }

    /** Opened as a draft. */
    volatile boolean draft;

    public boolean draft() {
      return draft;
    }

    public long number() {
      return number;
    }

    public String title() {
      return title;
    }

    /** Its description, as its author wrote it; GitHub answers null for none. */
    volatile String body;

    public void describe(String text) {
      this.body = text;
    }

    PullRequest(long number, String headBranch, String base, String title, String user) {
      this.number = number;
      this.headBranch = headBranch;
      this.base = base;
      this.title = title;
      this.user = user;
    }

    public boolean merged() {
      return mergedAs != null;
    }

    public String headBranch() {
      return headBranch;
    }

    /** The branch it merges into (a retarget changes it). */
    public String base() {
      return base;
    }

    public boolean open() {
      return open;
    }

    public String mergedAs() {
      return mergedAs;
    }
  }

  private static final AtomicLong REPOSITORY_IDS = new AtomicLong(186_853_000);

  /** The App id of the CI that reports check runs in tests (GitHub Actions' on github.com). */
  public static final long CI_APP = 15368;

  /** A check run App {@code appId} reported on a commit. */
  public record CheckRun(
      long id,
      String name,
      String headSha,
      String status,
      String conclusion,
      String title,
      String summary,
      String detailsUrl,
      long appId) {}

  /** A commit's check suite of one App, held open (more runs to come) by {@link #holdSuite}. */
  record Suite(String sha, long appId) {}

  /** A suite's {@code status}, {@code conclusion} (null until completed) and run count. */
  record SuiteState(String status, String conclusion, int runs) {}

  final Set<Suite> heldSuites = ConcurrentHashMap.newKeySet();

  /** PR {@code number} had {@code labels} after a change. */
  public record Labeled(long number, List<String> labels) {}

  /** A commit status some CI set. */
  /** A commit status; {@code app}: the slug of the App whose Bot made it (null: a person). */
  public record CommitStatus(String context, String state, String app) {}

  /** A comment on an issue or pull request. */
  public record Comment(long id, long issue, String user, String body) {}

  private final GithubSimulator github;

  SimulatedRepository(GithubSimulator github, String fullName, Path dir) throws IOException {
    this.github = github;
    this.fullName = fullName;
    this.git = new BareRepo(dir);
  }

  // what people and CI do on GitHub; each sends its webhook deliveries

  /**
   * Pushes a commit onto {@code branch} (created when missing) that sets {@code files} on top of
   * its current tree; open PRs from the branch are synchronized. Answers the new head.
   */
  public String push(String branch, Map<String, String> files, String message) {
    return push(branch, files, message, "alice");
  }

  /** {@link #push} of a commit by {@code author} ({@code <author>@example.com}). */
  public String push(String branch, Map<String, String> files, String message, String author) {
    Optional<String> before = head(branch);
    String after;
    synchronized (this) {
      try {
        Map<String, String> tree = new java.util.TreeMap<>();
        if (before.isPresent()) {
          tree.putAll(git.tree(ObjectId.fromString(before.get())));
        }
        tree.putAll(files);
        after =
            git.commit(before.map(ObjectId::fromString).orElse(null), tree, message, author).name();
        git.setRef(Constants.R_HEADS + branch, ObjectId.fromString(after));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    github.webhooks().push(this, Constants.R_HEADS + branch, before.orElse(null), after);
    for (PullRequest pr : pulls.values()) {
      if (pr.open() && pr.headBranch.equals(branch)) {
        github.webhooks().pullRequest(this, pr, "synchronize", null);
      }
    }
    github.webhooks().drain();
    return after;
  }

  /** Creates branch {@code name} at the head of {@code from} (a push); answers that head. */
  public String branch(String name, String from) {
    String at = head(from).orElseThrow();
    synchronized (this) {
      setRef(Constants.R_HEADS + name, at);
    }
    github.webhooks().push(this, Constants.R_HEADS + name, null, at);
    github.webhooks().drain();
    return at;
  }

  /** Opens a PR from {@code headBranch} onto {@code base}; answers its number. */
  public long openPullRequest(String headBranch, String base, String title, String user) {
    long number = open(headBranch, base, title, user);
    github.webhooks().pullRequest(this, pulls.get(number), "opened", null);
    github.webhooks().drain();
    return number;
  }

  public void close(long number) {
    PullRequest pr = pulls.get(number);
    pr.open = false;
    github.webhooks().pullRequest(this, pr, "closed", null);
    github.webhooks().drain();
  }

  public void label(long number, String label) {
    label(number, label, pulls.get(number).user);
  }

  /** {@code user} adds {@code label} to PR {@code number}. */
  public void label(long number, String label, String user) {
    github.webhooks().pullRequest(this, pulls.get(number), "labeled", label, user);
    github.webhooks().drain();
  }

  /** {@code user} comments {@code body} on PR {@code number}. */
  public void comment(long number, String user, String body) {
    Comment comment = new Comment(System.nanoTime(), number, user, body);
    comments.add(comment);
    github.webhooks().comment(this, pulls.get(number), comment);
    github.webhooks().drain();
  }

  /** The CI app completes check run {@code name} on {@code sha} with {@code conclusion}. */
  public void completeCheck(String sha, String name, String conclusion) {
    completeCheck(sha, name, conclusion, CI_APP);
  }

  /**
   * App {@code appId} completes check run {@code name} on {@code sha} with {@code conclusion}; when
   * its suite on the commit is not held open, the suite completes too ({@code check_suite}).
   */
  public void completeCheck(String sha, String name, String conclusion, long appId) {
    CheckRun run =
        new CheckRun(
            System.nanoTime(), name, sha, "completed", conclusion, name, null, null, appId);
    checkRuns.add(run);
    github.webhooks().checkRun(this, run);
    if (!heldSuites.contains(new Suite(sha, appId))) {
      github.webhooks().checkSuite(this, sha, appId);
    }
    github.webhooks().drain();
  }

  /** The CI app starts check run {@code name} on {@code sha} ({@code created}); answers its id. */
  public long startCheck(String sha, String name) {
    CheckRun run =
        new CheckRun(System.nanoTime(), name, sha, "in_progress", null, name, null, null, CI_APP);
    checkRuns.add(run);
    github.webhooks().checkRun(this, run);
    github.webhooks().drain();
    return run.id();
  }

  /** Check run {@code id}, started before, completes with {@code conclusion}. */
  public void completeCheck(long id, String conclusion) {
    CheckRun started = checkRuns.stream().filter(r -> r.id() == id).findFirst().orElseThrow();
    CheckRun run =
        new CheckRun(
            id,
            started.name(),
            started.headSha(),
            "completed",
            conclusion,
            started.title(),
            null,
            null,
            started.appId());
    checkRuns.remove(started);
    checkRuns.add(run);
    github.webhooks().checkRun(this, run);
    github.webhooks().checkSuite(this, run.headSha(), run.appId());
    github.webhooks().drain();
  }

  /**
   * App {@code appId}'s check suite on {@code sha} stays in progress after its runs so far
   * complete, as a GitHub Actions workflow does while a job that {@code needs} another has no run
   * yet.
   */
  public void holdSuite(String sha, long appId) {
    heldSuites.add(new Suite(sha, appId));
  }

  /** The held suite completes (its later runs done), and GitHub delivers {@code check_suite}. */
  public void releaseSuite(String sha, long appId) {
    heldSuites.remove(new Suite(sha, appId));
    github.webhooks().checkSuite(this, sha, appId);
    github.webhooks().drain();
  }

  /**
   * App {@code appId}'s suite on {@code sha} as GitHub shows it: {@code queued} without runs, in
   * progress while held or while a run is, else completed with the worst conclusion.
   */
  SuiteState suiteState(String sha, long appId) {
    List<CheckRun> runs =
        checkRuns.stream().filter(r -> r.headSha().equals(sha) && r.appId() == appId).toList();
    if (runs.isEmpty()) {
      return new SuiteState("queued", null, 0);
    }
    if (heldSuites.contains(new Suite(sha, appId))
        || runs.stream().anyMatch(r -> !r.status().equals("completed"))) {
      return new SuiteState("in_progress", null, runs.size());
    }
    boolean failed =
        runs.stream()
            .anyMatch(r -> !Set.of("success", "neutral", "skipped").contains(r.conclusion()));
    return new SuiteState("completed", failed ? "failure" : "success", runs.size());
  }

  public long id() {
    return id;
  }

  public String fullName() {
    return fullName;
  }

  /** Classic branch protection on {@code branch} requires status checks {@code contexts}. */
  public void protect(String branch, String... contexts) {
    protection.put(branch, List.of(contexts));
  }

  /** An active repository ruleset targeting {@code branch} requires checks {@code contexts}. */
  public void ruleset(String branch, String... contexts) {
    rulesets.put(branch, List.of(contexts));
  }

  /** The App each ruleset check of a branch is bound to ({@code integration_id}), by context. */
  final Map<String, Map<String, Long>> rulesetApps = new ConcurrentHashMap<>();

  /**
   * An active ruleset on {@code branch} requires check {@code context} from App {@code appId} only
   * ({@code integration_id}): a result of that context by anyone else does not count.
   */
  public void rulesetBoundTo(String branch, String context, long appId) {
    ruleset(branch, context);
    rulesetApps.computeIfAbsent(branch, k -> new ConcurrentHashMap<>()).put(context, appId);
  }

  /**
   * An active ruleset on {@code branch} has rule {@code type} with {@code parameters}: {@code
   * required_linear_history} (no merge commits), {@code merge_queue} (only GitHub's merge queue
   * merges), {@code pull_request} with {@code allowed_merge_methods}. GitHub refuses a ref update
   * that breaks the first two with its 422.
   */
  public void rule(String branch, String type, Map<String, Object> parameters) {
    branchRules.computeIfAbsent(branch, k -> new ConcurrentHashMap<>()).put(type, parameters);
  }

  /** Grants the App read access to administration settings ({@link #administrationRead}). */
  public void grantAdministrationRead() {
    administrationRead = true;
  }

  /**
   * {@code count} rules of other rulesets also target {@code branch}, listed before its own: with
   * GitHub's 30 rules a page, 30 of them put the branch's required checks on page 2.
   */
  public void otherRulesets(String branch, int count) {
    otherRules.put(branch, count);
  }

  /**
   * The next merge call onto {@code branch} races (405 "Base branch was modified"), and {@code
   * meanwhile} happens while GitHub answers it (someone pushes to the branch).
   */
  public void raceNextMerge(String branch, Runnable meanwhile) {
    pendingRaces.put(branch, 1);
    duringRace = meanwhile;
  }

  /** GitHub answers merge calls at once again: no race is pending, none follows a merge. */
  public void stopRaces() {
    racesPerMerge = 0;
    pendingRaces.clear();
  }

  /**
   * The required status checks of {@code branch}'s ruleset are strict: GitHub's merge endpoint
   * refuses a PR whose head does not contain the branch's head.
   */
  public void requireUpToDate(String branch) {
    upToDate.add(branch);
  }

  /**
   * After each merge of a pull request, the next {@code calls} merge calls onto its base answer 405
   * "Base branch was modified. Review and try the merge again.": GitHub's merge endpoint says so
   * while it recomputes the mergeability of the PRs left on a base that just moved (its REST
   * reference lists 405 for a merge that "cannot be performed"; the sentence and its passing nature
   * are what GitHub's own CLI retries, cli/cli#12748).
   */
  public void raceAfterEachMerge(int calls) {
    racesPerMerge = calls;
  }

  /**
   * Renames (or transfers) the repository to {@code newFullName}: GitHub answers calls on the old
   * name with a redirect to the new one, and delivers {@code repository} {@code renamed} (or {@code
   * transferred}).
   */
  public void rename(String newFullName) {
    String old = fullName;
    github.renamed(this, old, newFullName);
    fullName = newFullName;
    github.webhooks().repository(this, old);
    github.webhooks().drain();
  }

  /** A CI sets commit status {@code context} on {@code sha} (no delivery: read it back). */
  public void setStatus(String sha, String context, String state) {
    setStatus(sha, context, state, null);
  }

  /**
   * The Bot of App {@code app} (its slug, {@link GithubSimulator#registerApp}) sets a commit
   * status, as Vercel, Codecov or a Jenkins App do: GitHub lists it with the Bot as its {@code
   * creator}.
   */
  public void setStatus(String sha, String context, String state, String app) {
    statuses
        .computeIfAbsent(sha, k -> new CopyOnWriteArrayList<>())
        .add(new CommitStatus(context, state, app));
  }

  /**
   * Branch protection on {@code branch} gives the App no bypass: moving its ref through the API is
   * refused with GitHub's 422.
   */
  public void protectRef(String branch) {
    protectedRefs.put(branch, "Protected branch update failed for refs/heads/" + branch + ".");
  }

  /** The repository's settings disallow merge method {@code method} (squash, rebase, merge). */
  public void disableMergeMethod(String method) {
    disabledMergeMethods.add(method);
  }

  /** Gives {@code user} {@code permission} (admin, write, read) on the repository. */
  public void grant(String user, String permission) {
    permissions.put(user, permission);
  }

  /** Branch protection blocks PR {@code number} (a required review is missing), or not. */
  public void block(long number, boolean blocked) {
    PullRequest pr = pulls.get(number);
    pr.blockedBy = blocked ? "review" : null;
    pr.reviewDecision = blocked ? "REVIEW_REQUIRED" : null;
  }

  /**
   * A reviewer requests changes on PR {@code number} of a branch that requires reviews: GitHub
   * blocks merging it ({@code mergeable_state} {@code blocked}, {@code reviewDecision} {@code
   * CHANGES_REQUESTED}), and its merge endpoint refuses it; a bypass actor's ref update does not.
   */
  public void requestChanges(long number) {
    PullRequest pr = pulls.get(number);
    pr.blockedBy = "review";
    pr.reviewDecision = "CHANGES_REQUESTED";
  }

  /**
   * PR {@code number} is approved, but its head lacks a check the branch requires (CI runs only on
   * trainyard's branches): GitHub blocks merging it ({@code mergeable_state} {@code blocked}) while
   * its {@code reviewDecision} is {@code APPROVED}.
   */
  public void blockOnChecks(long number) {
    PullRequest pr = pulls.get(number);
    pr.blockedBy = "checks";
    pr.reviewDecision = "APPROVED";
  }

  public BareRepo git() {
    return git;
  }

  public Repository repository() {
    return git.repository();
  }

  synchronized long open(String headBranch, String base, String title, String user) {
    long number = numbers.incrementAndGet();
    pulls.put(number, new PullRequest(number, headBranch, base, title, user));
    return number;
  }

  public Optional<PullRequest> pull(long number) {
    return Optional.ofNullable(pulls.get(number));
  }

  /** Every pull request, open or not. */
  public List<PullRequest> pulls() {
    return List.copyOf(pulls.values());
  }

  public List<CheckRun> checkRuns() {
    return List.copyOf(checkRuns);
  }

  /** The labels PR {@code number} had after each change, oldest first. */
  public List<List<String>> labelHistory(long number) {
    return labelLog.stream().filter(l -> l.number() == number).map(Labeled::labels).toList();
  }

  /** Sets the labels of issue {@code number}, logging the change. */
  void setLabels(long number, java.util.Collection<String> names) {
    Set<String> now = new java.util.LinkedHashSet<>(names);
    issueLabels.put(number, now);
    labelLog.add(new Labeled(number, List.copyOf(now)));
  }

  public List<Comment> comments() {
    return List.copyOf(comments);
  }

  /** The head of {@code branch}, if it exists. */
  public Optional<String> head(String branch) {
    return ref(Constants.R_HEADS + branch);
  }

  Optional<String> ref(String name) {
    try {
      Ref ref = repository().exactRef(name);
      return Optional.ofNullable(ref).map(r -> r.getObjectId().name());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  String headOf(PullRequest pr) {
    return head(pr.headBranch).or(() -> Optional.ofNullable(pr.deletedHead)).orElseThrow();
  }

  /** Whether {@code sha} names a commit here. */
  boolean hasCommit(String sha) {
    try (RevWalk walk = new RevWalk(repository())) {
      walk.parseCommit(ObjectId.fromString(sha));
      return true;
    } catch (IOException | IllegalArgumentException e) {
      return false;
    }
  }

  /** Whether {@code ancestor} is reachable from {@code tip}. */
  public boolean contains(String tip, String ancestor) {
    try (RevWalk walk = new RevWalk(repository())) {
      return walk.isMergedInto(
          walk.parseCommit(ObjectId.fromString(ancestor)),
          walk.parseCommit(ObjectId.fromString(tip)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  String tree(String sha) {
    try (RevWalk walk = new RevWalk(repository())) {
      return walk.parseCommit(ObjectId.fromString(sha)).getTree().name();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A branch whose head is {@code sha}, as GitHub names a check suite's head branch; or null. */
  String branchAt(String sha) {
    try {
      // the branch whose push started the suite: a test branch, when one holds the commit
      return git.refs(Constants.R_HEADS).entrySet().stream()
          .filter(e -> e.getValue().name().equals(sha))
          .map(e -> e.getKey().substring(Constants.R_HEADS.length()))
          .min(
              java.util.Comparator.comparing(
                  (String b) -> !dev.trainyard.common.queue.TestBranches.isOwn(b)))
          .orElse(null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** How many pushes ref {@code name} saw. */
  public int pushesTo(String name) {
    return refWrites.getOrDefault(name, 0);
  }

  synchronized void setRef(String name, String sha) {
    refWrites.merge(name, 1, Integer::sum);
    try {
      git.setRef(name, ObjectId.fromString(sha));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  synchronized void deleteRef(String name) {
    refWrites.merge(name, 1, Integer::sum);
    try {
      git.deleteRef(name);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The tree of {@code theirs} merged into {@code ours} (three-way, on their merge base), empty on
   * a conflict.
   */
  Optional<ObjectId> mergedTree(String ours, String theirs, String base) {
    try (RevWalk walk = new RevWalk(repository())) {
      ResolveMerger merger = (ResolveMerger) MergeStrategy.RECURSIVE.newMerger(repository(), true);
      if (base != null) {
        merger.setBase(walk.parseCommit(ObjectId.fromString(base)));
      }
      boolean clean =
          merger.merge(
              walk.parseCommit(ObjectId.fromString(ours)),
              walk.parseCommit(ObjectId.fromString(theirs)));
      return clean ? Optional.of(merger.getResultTreeId()) : Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A commit of {@code tree} on {@code parents}, by GitHub. */
  String commit(ObjectId tree, String message, String... parents) {
    try (ObjectInserter inserter = repository().newObjectInserter()) {
      CommitBuilder commit = new CommitBuilder();
      commit.setTreeId(tree);
      for (String parent : parents) {
        commit.addParentId(ObjectId.fromString(parent));
      }
      commit.setAuthor(GITHUB);
      commit.setCommitter(GITHUB);
      commit.setMessage(message + "\n");
      ObjectId id = inserter.insert(commit);
      inserter.flush();
      return id.name();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The commits of {@code head} not in {@code base}, oldest first (first parents). */
  List<RevCommit> ownCommits(String base, String head) {
    try (RevWalk walk = new RevWalk(repository())) {
      walk.markStart(walk.parseCommit(ObjectId.fromString(head)));
      walk.markUninteresting(walk.parseCommit(ObjectId.fromString(base)));
      List<RevCommit> out = new ArrayList<>();
      walk.forEach(out::add);
      java.util.Collections.reverse(out);
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The full message of commit {@code sha}. */
  String message(String sha) {
    try {
      return git.parse(ObjectId.fromString(sha)).getFullMessage();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The tree of commit {@code sha}. */
  ObjectId treeOf(String sha) {
    try (RevWalk walk = new RevWalk(repository())) {
      return walk.parseCommit(ObjectId.fromString(sha)).getTree().getId();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** How many parents commit {@code sha} has (a merge commit: two). */
  int parents(String sha) {
    return parentShas(sha).size();
  }

  /** The parents of commit {@code sha}, in order. */
  List<String> parentShas(String sha) {
    try (RevWalk walk = new RevWalk(repository())) {
      return java.util.Arrays.stream(walk.parseCommit(ObjectId.fromString(sha)).getParents())
          .map(RevCommit::name)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
