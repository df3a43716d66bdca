package dev.trainyard.worker.scm.git;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.TreeFormatter;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * A real bare repository on disk, as a git server holds it, with helpers that write commits and
 * refs the way pushes would: {@code repo.commit(main, files("a", "1"), "add a", "alice")}.
 */
public final class BareRepo implements AutoCloseable {
  final Repository git;

  public BareRepo(Path dir) throws IOException {
    git = FileRepositoryBuilder.create(dir.toFile());
    git.create(true);
  }

  public Repository repository() {
    return git;
  }

  /**
   * An empty file at {@code name} inside the repository's folder, last modified {@code age} ago: a
   * lock file ({@code refs/heads/main.lock}) as a writer that died left it.
   */
  public Path fileAged(String name, Duration age) throws IOException {
    Path file = git.getDirectory().toPath().resolve(name);
    Files.createDirectories(file.getParent());
    Files.write(file, new byte[0]);
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
    return file;
  }

  public static Map<String, String> files(String... nameThenContent) {
    Map<String, String> files = new TreeMap<>();
    for (int i = 0; i < nameThenContent.length; i += 2) {
      files.put(nameThenContent[i], nameThenContent[i + 1]);
    }
    return files;
  }

  /** A commit whose tree holds exactly {@code files} (flat names). */
  public ObjectId commit(ObjectId parent, Map<String, String> files, String message, String author)
      throws IOException {
    return commitOf(parent == null ? List.of() : List.of(parent), files, message, author);
  }

  /** A commit of {@code parents} (two: a merge) whose tree holds exactly {@code files}. */
  public ObjectId commitOf(
      List<ObjectId> parents, Map<String, String> files, String message, String author)
      throws IOException {
    try (ObjectInserter inserter = git.newObjectInserter()) {
      TreeFormatter tree = new TreeFormatter();
      for (Map.Entry<String, String> f : new TreeMap<>(files).entrySet()) {
        ObjectId blob =
            inserter.insert(Constants.OBJ_BLOB, f.getValue().getBytes(StandardCharsets.UTF_8));
        tree.append(f.getKey(), FileMode.REGULAR_FILE, blob);
      }
      CommitBuilder commit = new CommitBuilder();
      commit.setTreeId(inserter.insert(tree));
      commit.setParentIds(parents);
      PersonIdent ident = new PersonIdent(author, author + "@example.com");
      commit.setAuthor(ident);
      commit.setCommitter(ident);
      commit.setMessage(message + "\n\nbody of " + message + "\n");
      ObjectId id = inserter.insert(commit);
      inserter.flush();
      return id;
    }
  }

  public void setRef(String name, ObjectId id) throws IOException {
    RefUpdate update = git.updateRef(name);
    update.setNewObjectId(id);
    update.setForceUpdate(true);
    update.update();
  }

  public void deleteRef(String name) throws IOException {
    RefUpdate update = git.updateRef(name);
    update.setForceUpdate(true);
    update.delete();
  }

  public void setSymbolicRef(String name, String target) throws IOException {
    git.updateRef(name).link(target);
  }

  public ObjectId head(String branch) throws IOException {
    var ref = git.exactRef(Constants.R_HEADS + branch);
    return ref == null ? null : ref.getObjectId();
  }

  /** The files of a commit's tree, name to content. */
  public Map<String, String> tree(ObjectId commitId) throws IOException {
    Map<String, String> files = new TreeMap<>();
    try (RevWalk walk = new RevWalk(git);
        TreeWalk tree = new TreeWalk(git)) {
      tree.addTree(walk.parseCommit(commitId).getTree());
      tree.setRecursive(true);
      while (tree.next()) {
        files.put(
            tree.getPathString(),
            new String(git.open(tree.getObjectId(0)).getBytes(), StandardCharsets.UTF_8));
      }
    }
    return files;
  }

  public RevCommit parse(ObjectId id) throws IOException {
    try (RevWalk walk = new RevWalk(git)) {
      return walk.parseCommit(id);
    }
  }

  /**
   * First-parent history from {@code tip} back to (excluding) {@code base}, or to the root when
   * {@code base} is null; newest first.
   */
  public List<RevCommit> history(ObjectId tip, ObjectId base) throws IOException {
    List<RevCommit> out = new java.util.ArrayList<>();
    RevCommit current = parse(tip);
    while (!current.equals(base)) {
      out.add(current);
      if (current.getParentCount() == 0) {
        break; // base null: the whole first-parent history
      }
      current = parse(current.getParent(0));
    }
    return out;
  }

  /** The refs whose names start with {@code prefix}, name to commit. */
  public Map<String, ObjectId> refs(String prefix) throws IOException {
    Map<String, ObjectId> refs = new TreeMap<>();
    for (var ref : git.getRefDatabase().getRefsByPrefix(prefix)) {
      refs.put(ref.getName(), ref.getObjectId());
    }
    return refs;
  }

  /** Every commit reachable from {@code tip}. */
  public List<RevCommit> allCommits(ObjectId tip) throws IOException {
    List<RevCommit> out = new java.util.ArrayList<>();
    try (RevWalk walk = new RevWalk(git)) {
      walk.markStart(walk.parseCommit(tip));
      walk.forEach(out::add);
    }
    return out;
  }

  @Override
  public void close() {
    git.close();
  }
}
