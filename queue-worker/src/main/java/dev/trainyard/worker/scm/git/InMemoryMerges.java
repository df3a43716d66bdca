package dev.trainyard.worker.scm.git;

import dev.trainyard.common.queue.MergeCommitMessage;
import dev.trainyard.worker.scm.PullRequestHead;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.jgit.lib.AnyObjectId;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.merge.MergeStrategy;
import org.eclipse.jgit.merge.ResolveMerger;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevSort;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * Merges, squashes and rebases computed in memory on a bare repository (no working tree). Every
 * commit trainyard writes for a test run carries the trailer {@value #TRAILER}{@code : <run id>}:
 * the test branch's merges, and each commit that lands, whatever the merge method; so a landing is
 * recognised by its run after a crash even when the tree it left differs from the tested one.
 */
final class InMemoryMerges {
  static final String TRAILER = MergeCommitMessage.RUN_TRAILER;

  /** How far back along first parents a landing is looked for. */
  private static final int SEARCH_DEPTH = 10_000;

  private InMemoryMerges() {}

  /** {@code message} with the run's trailer (unchanged when it has it, or when there is no run). */
  static String signed(String message, String runId) {
    if (runId == null || message.contains(TRAILER + ": " + runId)) {
      return message;
    }
    String body = message.stripTrailing();
    String lastParagraph = body.substring(body.lastIndexOf("\n\n") + 1).strip();
    boolean trailers =
        body.contains("\n\n")
            && lastParagraph.lines().allMatch(l -> l.matches("[A-Za-z0-9-]+: .*"));
    return body + (trailers ? "\n" : "\n\n") + TRAILER + ": " + runId + "\n";
  }

  /** The test run {@code commit} was written for, from its trailer. */
  static Optional<String> runOf(RevCommit commit) {
    List<String> runs = commit.getFooterLines(TRAILER);
    return runs.isEmpty() ? Optional.empty() : Optional.of(runs.get(runs.size() - 1).strip());
  }

  /**
   * Where the run {@code tested} is the tip of landed on {@code tip} since {@code ancestor}: the
   * newest commit carrying its trailer on the first-parent line from {@code tip} back to {@code
   * ancestor}. A tested commit without a trailer (built before trailers) is recognised as before:
   * {@code tip} itself, when it has the tested tree and descends from {@code ancestor}.
   */
  static Optional<ObjectId> landedSince(
      Repository git, ObjectId tip, ObjectId tested, ObjectId ancestor) throws IOException {
    try (RevWalk walk = new RevWalk(git)) {
      RevCommit head = walk.parseCommit(tip);
      RevCommit testedCommit = walk.parseCommit(tested);
      RevCommit base = walk.parseCommit(ancestor);
      Optional<String> run = runOf(testedCommit);
      if (run.isEmpty()) {
        boolean landed =
            head.getTree().equals(testedCommit.getTree()) && walk.isMergedInto(base, head);
        return landed ? Optional.of(head) : Optional.empty();
      }
      RevCommit current = head;
      for (int depth = 0; depth < SEARCH_DEPTH && !current.equals(base); depth++) {
        walk.parseBody(current);
        if (run.equals(runOf(current))) {
          return Optional.of(current);
        }
        if (current.getParentCount() == 0) {
          return Optional.empty();
        }
        current = walk.parseCommit(current.getParent(0));
      }
      return Optional.empty();
    }
  }

  /** The tree of merging {@code theirs} into {@code ours}, empty on a conflict. */
  static Optional<ObjectId> merge(Repository git, AnyObjectId ours, AnyObjectId theirs)
      throws IOException {
    ResolveMerger merger = (ResolveMerger) MergeStrategy.RECURSIVE.newMerger(git, true);
    return merger.merge(ours, theirs) ? Optional.of(merger.getResultTreeId()) : Optional.empty();
  }

  /** A merge commit of {@code theirs} into {@code ours}, empty on a conflict. */
  static Optional<ObjectId> mergeCommit(
      Repository git, ObjectId ours, ObjectId theirs, String message, PersonIdent committer)
      throws IOException {
    Optional<ObjectId> tree = merge(git, ours, theirs);
    if (tree.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        commit(git, tree.get(), List.of(ours, theirs), committer, committer, message));
  }

  /**
   * The run's own commits (from {@code builtOn} to {@code tested} along first parents: one merge
   * per PR) replayed on top of {@code onto}. When {@code onto} holds what the run was built on,
   * with the trees the tested branch had after each PR: the tested content lands unchanged. When it
   * holds more (another lane landed there in parallel mode), each PR's change is merged three-way
   * onto it; empty on a conflict. As squashes ({@code squash} non-null: each one's message for its
   * PR, signed with the run), one plain commit per PR; otherwise merge commits that keep each PR
   * head as second parent and the tested merge's message.
   */
  static Optional<ObjectId> replay(
      Repository git,
      ObjectId builtOn,
      ObjectId tested,
      ObjectId onto,
      List<PullRequestHead> prs,
      Function<PullRequestHead, String> squash,
      PersonIdent committer)
      throws IOException {
    List<RevCommit> merges = firstParentChain(git, builtOn, tested);
    String run = runOf(parse(git, tested)).orElse(null);
    boolean sameContent = parse(git, onto).getTree().equals(parse(git, builtOn).getTree());
    ObjectId current = onto;
    for (int i = 0; i < merges.size(); i++) {
      PullRequestHead pr = prs.get(Math.min(i, prs.size() - 1));
      RevCommit original = merges.get(i);
      RevCommit head = parse(git, ObjectId.fromString(pr.sha()));
      ObjectId tree = original.getTree();
      if (!sameContent) {
        ResolveMerger merger = (ResolveMerger) MergeStrategy.RECURSIVE.newMerger(git, true);
        merger.setBase(original.getParent(0));
        if (!merger.merge(current, original)) {
          return Optional.empty();
        }
        tree = merger.getResultTreeId();
      }
      current =
          squash != null
              ? commit(
                  git,
                  tree,
                  List.of(current),
                  head.getAuthorIdent(),
                  committer,
                  signed(squash.apply(pr), run))
              : commit(
                  git,
                  tree,
                  List.of(current, head),
                  original.getAuthorIdent(),
                  committer,
                  signed(original.getFullMessage(), run));
    }
    return Optional.of(current);
  }

  /** What rebasing a run's PRs gave: the new tip, or the PR it stopped at. */
  sealed interface Rebased {
    record Done(ObjectId tip) implements Rebased {}

    /** A commit of the PR did not apply. */
    record Conflicted(long prNumber) implements Rebased {}

    /**
     * The PR's own commits give a tree other than the one tested with it: its branch holds a merge
     * commit that resolved a conflict or added a change, which a rebase (replaying the non-merge
     * commits) drops.
     */
    record Differs(long prNumber) implements Rebased {}
  }

  /**
   * Each PR's own commits replayed on top of {@code onto}, in order, each signed with the run of
   * {@code tested}; after each PR the tree must be the one the run tested with it (replayed onto
   * {@code onto} as {@link #replay} does, when another lane landed there first).
   */
  static Rebased rebase(
      Repository git,
      ObjectId builtOn,
      ObjectId tested,
      ObjectId onto,
      List<PullRequestHead> prs,
      PersonIdent committer)
      throws IOException {
    long last = prs.isEmpty() ? 0 : prs.get(prs.size() - 1).number();
    // the trees a squash of each PR gives, to hold the rebase to (their messages are not kept)
    Optional<ObjectId> squashed =
        replay(git, builtOn, tested, onto, prs, PullRequestHead::title, committer);
    if (squashed.isEmpty()) {
      return new Rebased.Conflicted(last);
    }
    List<RevCommit> wanted = firstParentChain(git, onto, squashed.get());
    String runId = runOf(parse(git, tested)).orElse(null);
    ObjectId current = onto;
    for (int i = 0; i < prs.size(); i++) {
      PullRequestHead pr = prs.get(i);
      List<RevCommit> own = ownCommits(git, current, ObjectId.fromString(pr.sha()));
      boolean merges = own.stream().anyMatch(c -> c.getParentCount() > 1);
      for (RevCommit commit : own.stream().filter(c -> c.getParentCount() == 1).toList()) {
        ResolveMerger merger = (ResolveMerger) MergeStrategy.RECURSIVE.newMerger(git, true);
        merger.setBase(commit.getParent(0));
        if (!merger.merge(current, commit)) {
          // a conflict its branch's own merge commit resolved, which the tested tree holds
          return merges ? new Rebased.Differs(pr.number()) : new Rebased.Conflicted(pr.number());
        }
        current =
            commit(
                git,
                merger.getResultTreeId(),
                List.of(current),
                commit.getAuthorIdent(),
                committer,
                signed(commit.getFullMessage(), runId));
      }
      boolean perPr = wanted.size() == prs.size();
      if (perPr && !parse(git, current).getTree().equals(wanted.get(i).getTree())) {
        return new Rebased.Differs(pr.number());
      }
    }
    return parse(git, current).getTree().equals(parse(git, squashed.get()).getTree())
        ? new Rebased.Done(current)
        : new Rebased.Differs(last);
  }

  /** The commits reachable from {@code head} but not from {@code onto}, oldest first. */
  private static List<RevCommit> ownCommits(Repository git, ObjectId onto, ObjectId head)
      throws IOException {
    List<RevCommit> commits = new ArrayList<>();
    try (RevWalk walk = new RevWalk(git)) {
      walk.markStart(walk.parseCommit(head));
      walk.markUninteresting(walk.parseCommit(onto));
      walk.sort(RevSort.TOPO, true);
      walk.sort(RevSort.REVERSE, true);
      for (RevCommit c : walk) {
        commits.add(c);
      }
    }
    return commits;
  }

  /** The commits from {@code base} (exclusive) to {@code tip} along first parents, oldest first. */
  private static List<RevCommit> firstParentChain(Repository git, ObjectId base, ObjectId tip)
      throws IOException {
    List<RevCommit> chain = new ArrayList<>();
    try (RevWalk walk = new RevWalk(git)) {
      RevCommit current = walk.parseCommit(tip);
      while (!current.equals(base)) {
        chain.add(0, current);
        if (current.getParentCount() == 0) {
          throw new IOException(tip.name() + " does not descend from " + base.name());
        }
        current = walk.parseCommit(current.getParent(0));
      }
    }
    return chain;
  }

  static RevCommit parse(Repository git, ObjectId id) throws IOException {
    try (RevWalk walk = new RevWalk(git)) {
      return walk.parseCommit(id);
    }
  }

  private static ObjectId commit(
      Repository git,
      ObjectId tree,
      List<? extends AnyObjectId> parents,
      PersonIdent author,
      PersonIdent committer,
      String message)
      throws IOException {
    CommitBuilder commit = new CommitBuilder();
    commit.setTreeId(tree);
    commit.setParentIds(parents);
    commit.setAuthor(author);
    commit.setCommitter(committer);
    commit.setMessage(message);
    try (ObjectInserter inserter = git.newObjectInserter()) {
      ObjectId id = inserter.insert(commit);
      inserter.flush();
      return id;
    }
  }
}
