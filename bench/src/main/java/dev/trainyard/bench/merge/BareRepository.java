package dev.trainyard.bench.merge;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheBuilder;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.TreeFormatter;
import org.eclipse.jgit.merge.MergeStrategy;
import org.eclipse.jgit.merge.ResolveMerger;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * The benchmark's git server side: a bare repository whose PRs each add one file on top of a
 * branch, and the baseline operation, a merge commit of a PR into main computed in memory.
 */
public final class BareRepository implements AutoCloseable {
  private static final PersonIdent AUTHOR = new PersonIdent("bench", "bench@localhost");
  private final Repository git;

  /** A new bare repository at {@code dir} whose {@code main} holds one commit. */
  public BareRepository(Path dir) throws IOException {
    git = FileRepositoryBuilder.create(dir.toFile());
    git.create(true);
    try (ObjectInserter inserter = git.newObjectInserter()) {
      ObjectId blob = inserter.insert(Constants.OBJ_BLOB, bytes("hello\n"));
      TreeFormatter tree = new TreeFormatter();
      tree.append("README", FileMode.REGULAR_FILE, blob);
      ObjectId root = commit(inserter, inserter.insert(tree), null, "Initial commit");
      setRef("refs/heads/main", root);
    }
  }

  /** PR {@code number}: main's tree plus {@code file}, pushed as {@code refs/pull/<n>/head}. */
  ObjectId openPr(long number, String file) throws IOException {
    return openPr(number, file, "main");
  }

  /** Branch {@code name} where main is. */
  public void branch(String name) throws IOException {
    setRef(Constants.R_HEADS + name, head("refs/heads/main"));
  }

  /**
   * PR {@code number} onto {@code base}: its tree plus {@code file}, pushed as {@code
   * refs/pull/<n>/head}.
   */
  public ObjectId openPr(long number, String file, String base) throws IOException {
    ObjectId onto = head(Constants.R_HEADS + base);
    try (ObjectInserter inserter = git.newObjectInserter();
        RevWalk walk = new RevWalk(git);
        TreeWalk tree = new TreeWalk(git)) {
      DirCache index = DirCache.newInCore();
      DirCacheBuilder builder = index.builder();
      tree.addTree(walk.parseCommit(onto).getTree());
      tree.setRecursive(true);
      while (tree.next()) {
        DirCacheEntry e = new DirCacheEntry(tree.getPathString());
        e.setFileMode(tree.getFileMode(0));
        e.setObjectId(tree.getObjectId(0));
        builder.add(e);
      }
      DirCacheEntry added = new DirCacheEntry(file);
      added.setFileMode(FileMode.REGULAR_FILE);
      added.setObjectId(inserter.insert(Constants.OBJ_BLOB, bytes(number + "\n")));
      builder.add(added);
      builder.finish();
      ObjectId head = commit(inserter, index.writeTree(inserter), onto, "Add " + file);
      setRef("refs/pull/" + number + "/head", head);
      return head;
    }
  }

  /** The baseline: merge {@code pr} into {@code base} in memory and point a scratch ref at it. */
  void mergeInMemory(ObjectId base, ObjectId pr, String scratchRef) throws IOException {
    ResolveMerger merger = (ResolveMerger) MergeStrategy.RECURSIVE.newMerger(git, true);
    if (!merger.merge(base, pr)) {
      throw new IllegalStateException("the benchmark's PRs never conflict");
    }
    try (ObjectInserter inserter = git.newObjectInserter()) {
      CommitBuilder commit = new CommitBuilder();
      commit.setTreeId(merger.getResultTreeId());
      commit.setParentIds(base, pr);
      commit.setAuthor(AUTHOR);
      commit.setCommitter(AUTHOR);
      commit.setMessage("baseline merge");
      ObjectId merged = inserter.insert(commit);
      inserter.flush();
      setRef(scratchRef, merged);
    }
  }

  /** The commit a ref points at now, read from disk (null when it does not exist). */
  ObjectId head(String ref) throws IOException {
    Ref found = git.exactRef(ref);
    return found == null ? null : found.getObjectId();
  }

  Map<String, ObjectId> refs(String prefix) throws IOException {
    Map<String, ObjectId> out = new TreeMap<>();
    for (Ref ref : git.getRefDatabase().getRefsByPrefix(prefix)) {
      out.put(ref.getName(), ref.getObjectId());
    }
    return out;
  }

  boolean treeHas(ObjectId commit, String file) throws IOException {
    try (RevWalk walk = new RevWalk(git)) {
      return TreeWalk.forPath(git, file, walk.parseCommit(commit).getTree()) != null;
    }
  }

  void deleteRef(String ref) throws IOException {
    RefUpdate update = git.updateRef(ref);
    update.setForceUpdate(true);
    update.delete();
  }

  private ObjectId commit(ObjectInserter inserter, ObjectId tree, ObjectId parent, String message)
      throws IOException {
    CommitBuilder commit = new CommitBuilder();
    commit.setTreeId(tree);
    if (parent != null) {
      commit.setParentId(parent);
    }
    commit.setAuthor(AUTHOR);
    commit.setCommitter(AUTHOR);
    commit.setMessage(message);
    ObjectId id = inserter.insert(commit);
    inserter.flush();
    return id;
  }

  private void setRef(String name, ObjectId id) throws IOException {
    RefUpdate update = git.updateRef(name);
    update.setNewObjectId(id);
    update.setForceUpdate(true);
    update.update();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    git.close();
  }
}
