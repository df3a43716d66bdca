package dev.trainyard.worker.scm.git;

import dev.trainyard.worker.scm.PullRequestHead;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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

/** Merges, squashes and rebases computed in memory on a bare repository (no working tree). */
final class InMemoryMerges {
  private InMemoryMerges() {}

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

  /** Whether {@code tip} has {@code tree}'s tree and descends from {@code ancestor}. */
  static boolean landedOn(Repository git, ObjectId tip, ObjectId tested, ObjectId ancestor)
      throws IOException {
    try (RevWalk walk = new RevWalk(git)) {
      RevCommit head = walk.parseCommit(tip);
      RevCommit testedCommit = walk.parseCommit(tested);
      return head.getTree().equals(testedCommit.getTree())
          && walk.isMergedInto(walk.parseCommit(ancestor), head);
    }
  }

  /**
   * The run's own commits (from {@code builtOn} to {@code tested} along first parents: one merge
   * per PR) replayed on top of {@code onto}. When {@code onto} holds what the run was built on,
   * with the trees the tested branch had after each PR: the tested content lands unchanged. When it
   * holds more (another lane landed there in parallel mode), each PR's change is merged three-way
   * onto it; empty on a conflict. As squashes, one plain commit per PR; otherwise merge commits
   * that keep each PR head as second parent.
   */
  static Optional<ObjectId> replay(
      Repository git,
      ObjectId builtOn,
      ObjectId tested,
      ObjectId onto,
      List<PullRequestHead> prs,
      boolean squash,
      PersonIdent committer)
      throws IOException {
    List<RevCommit> merges = firstParentChain(git, builtOn, tested);
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
          squash
              ? commit(
                  git,
                  tree,
                  List.of(current),
                  head.getAuthorIdent(),
                  committer,
                  pr.title() + " (#" + pr.number() + ")")
              : commit(
                  git,
                  tree,
                  List.of(current, head),
                  original.getAuthorIdent(),
                  committer,
                  original.getFullMessage());
    }
    return Optional.of(current);
  }

  /** Each PR's own commits replayed on top of {@code base}, in order; empty on a conflict. */
  static Optional<ObjectId> rebase(
      Repository git, ObjectId base, List<PullRequestHead> prs, PersonIdent committer)
      throws IOException {
    ObjectId current = base;
    for (PullRequestHead pr : prs) {
      for (RevCommit commit : ownCommits(git, current, ObjectId.fromString(pr.sha()))) {
        ResolveMerger merger = (ResolveMerger) MergeStrategy.RECURSIVE.newMerger(git, true);
        merger.setBase(commit.getParent(0));
        if (!merger.merge(current, commit)) {
          return Optional.empty();
        }
        current =
            commit(
                git,
                merger.getResultTreeId(),
                List.of(current),
                commit.getAuthorIdent(),
                committer,
                commit.getFullMessage());
      }
    }
    return Optional.of(current);
  }

  /** The non-merge commits reachable from {@code head} but not from {@code onto}, oldest first. */
  private static List<RevCommit> ownCommits(Repository git, ObjectId onto, ObjectId head)
      throws IOException {
    List<RevCommit> commits = new ArrayList<>();
    try (RevWalk walk = new RevWalk(git)) {
      walk.markStart(walk.parseCommit(head));
      walk.markUninteresting(walk.parseCommit(onto));
      walk.sort(RevSort.TOPO, true);
      walk.sort(RevSort.REVERSE, true);
      for (RevCommit c : walk) {
        if (c.getParentCount() == 1) {
          commits.add(c);
        }
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

  private static RevCommit parse(Repository git, ObjectId id) throws IOException {
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
