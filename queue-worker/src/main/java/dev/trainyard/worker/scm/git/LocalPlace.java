package dev.trainyard.worker.scm.git;

import java.io.IOException;
import java.nio.file.Path;
import org.eclipse.jgit.errors.IncorrectObjectTypeException;
import org.eclipse.jgit.errors.LockFailedException;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * A bare repository under the git root: reads and ref updates go to it directly. An update or
 * delete that finds a lock left by a writer that died removes it and tries once more ({@link
 * StaleLocks}).
 */
final class LocalPlace implements GitPlace {
  private final Repository repository;

  LocalPlace(Path dir) throws IOException {
    this.repository =
        new FileRepositoryBuilder().setGitDir(dir.toFile()).setMustExist(true).build();
  }

  @Override
  public Repository repository() {
    return repository;
  }

  @Override
  public void sync() {
    // the refs live here
  }

  @Override
  public Update update(String ref, ObjectId expectedOld, ObjectId newId) throws IOException {
    return move(repository, ref, expectedOld, newId);
  }

  @Override
  public void delete(String ref) throws IOException {
    new Deleter(repository).delete(ref);
  }

  /** Deletes refs of one repository, whatever they hold. */
  record Deleter(Repository repository) {
    void delete(String ref) throws IOException {
      RefUpdate.Result result =
          pastStaleLocks(
              repository,
              () -> {
                RefUpdate update = repository.updateRef(ref);
                update.setForceUpdate(true);
                return update.delete();
              });
      if (result == RefUpdate.Result.LOCK_FAILURE) {
        throw new IOException("could not delete " + ref + ": its lock is held");
      }
    }
  }

  @Override
  public void close() {
    repository.close();
  }

  /** A ref update in {@code repository} with {@link GitPlace#update}'s rules. */
  static Update move(Repository repository, String ref, ObjectId expectedOld, ObjectId newId)
      throws IOException {
    RefUpdate.Result result =
        pastStaleLocks(repository, () -> moveOnce(repository, ref, expectedOld, newId));
    switch (result) {
      case NEW, FORCED, FAST_FORWARD, NO_CHANGE -> {
        return Update.MOVED;
      }
      case LOCK_FAILURE, REJECTED -> {
        return Update.REFUSED;
      }
      default -> throw new IOException("could not update " + ref + ": " + result);
    }
  }

  private static RefUpdate.Result moveOnce(
      Repository repository, String ref, ObjectId expectedOld, ObjectId newId) throws IOException {
    RefUpdate update = repository.updateRef(ref);
    update.setNewObjectId(newId);
    update.setExpectedOldObjectId(expectedOld);
    // JGit proves a fast-forward by a merge-base walk, which on a queue's target (every landing a
    // merge commit whose side is a PR) reads far more of the history the longer it is; a landing
    // descends from the target by first parents, which proves it in a few commits. The expected
    // value is still checked under the ref's lock either way.
    update.setForceUpdate(
        expectedOld == null || firstParentDescends(repository, expectedOld, newId));
    return update.update();
  }

  /**
   * How many first parents {@link #firstParentDescends} reads before it leaves the proof to JGit.
   */
  static final int FIRST_PARENTS = 128;

  /**
   * Whether {@code ancestor} is {@code tip} or one of its first {@link #FIRST_PARENTS} first-parent
   * ancestors: a landing built on the target (merge commits, replayed or rebased commits on top of
   * it) always is. False when it is not found there or {@code tip} is not a commit, which proves
   * nothing: JGit then walks, or refuses.
   */
  static boolean firstParentDescends(Repository repository, ObjectId ancestor, ObjectId tip)
      throws IOException {
    if (ancestor.equals(ObjectId.zeroId())) {
      return false;
    }
    try (RevWalk walk = new RevWalk(repository)) {
      // not parseCommit, which peels a tag: a tag is no commit to put on a branch, JGit refuses it
      if (!(walk.parseAny(tip) instanceof RevCommit commit)) {
        return false;
      }
      for (int i = 0; i <= FIRST_PARENTS; i++) {
        if (commit.equals(ancestor)) {
          return true;
        }
        if (commit.getParentCount() == 0) {
          return false;
        }
        commit = walk.parseCommit(commit.getParent(0));
      }
      return false;
    } catch (IncorrectObjectTypeException | MissingObjectException notACommit) {
      return false;
    }
  }

  /** One ref update or delete. */
  private interface RefChange {
    RefUpdate.Result run() throws IOException;
  }

  /**
   * Runs {@code change}, and once more if it failed on a lock and {@link StaleLocks} removed one
   * (an update reports a held lock as {@code LOCK_FAILURE}; a delete, which also locks the packed
   * refs, may throw instead).
   */
  private static RefUpdate.Result pastStaleLocks(Repository repository, RefChange change)
      throws IOException {
    try {
      RefUpdate.Result result = change.run();
      if (result != RefUpdate.Result.LOCK_FAILURE || !StaleLocks.clear(repository)) {
        return result;
      }
    } catch (LockFailedException e) {
      if (!StaleLocks.clear(repository)) {
        throw e;
      }
    }
    return change.run();
  }
}
