package dev.trainyard.worker.scm.git;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bare repository under the git root: reads and ref updates go to it directly.
 *
 * <p>A writer killed in the middle of a ref update (SIGKILL, OOM kill, node loss) leaves the ref's
 * lock file behind, and git refuses every later update of that ref for as long as it is there. A
 * ref update holds its lock for milliseconds, so a lock older than {@link #STALE_LOCK} belongs to a
 * writer that is gone: it is removed and the update tried once more.
 */
final class LocalPlace implements GitPlace {
  /** How old a ref lock must be before it counts as left by a writer that died. */
  static final Duration STALE_LOCK = Duration.ofSeconds(30);

  private static final Logger log = LoggerFactory.getLogger(LocalPlace.class);
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
      RefUpdate.Result result = deleteOnce(ref);
      if (result == RefUpdate.Result.LOCK_FAILURE && clearedStaleLocks(repository, ref)) {
        result = deleteOnce(ref);
      }
      if (result == RefUpdate.Result.LOCK_FAILURE) {
        throw new IOException("could not delete " + ref + ": its lock is held");
      }
    }

    private RefUpdate.Result deleteOnce(String ref) throws IOException {
      RefUpdate update = repository.updateRef(ref);
      update.setForceUpdate(true);
      return update.delete();
    }
  }

  @Override
  public void close() {
    repository.close();
  }

  /** A ref update in {@code repository} with {@link GitPlace#update}'s rules. */
  static Update move(Repository repository, String ref, ObjectId expectedOld, ObjectId newId)
      throws IOException {
    RefUpdate.Result result = moveOnce(repository, ref, expectedOld, newId);
    if (result == RefUpdate.Result.LOCK_FAILURE && clearedStaleLocks(repository, ref)) {
      result = moveOnce(repository, ref, expectedOld, newId);
    }
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
    if (expectedOld != null) {
      update.setExpectedOldObjectId(expectedOld);
      update.setForceUpdate(false);
    } else {
      update.setForceUpdate(true);
    }
    return update.update();
  }

  /**
   * Removes the locks an update of {@code ref} takes (the ref's own, and the packed refs' that a
   * delete takes) when they are older than {@link #STALE_LOCK}; answers whether it removed one.
   */
  private static boolean clearedStaleLocks(Repository repository, String ref) throws IOException {
    Path dir = repository.getDirectory().toPath();
    boolean cleared = false;
    for (Path lock : new Path[] {dir.resolve(ref + ".lock"), dir.resolve("packed-refs.lock")}) {
      try {
        Instant taken = Files.getLastModifiedTime(lock).toInstant();
        if (taken.isBefore(Instant.now().minus(STALE_LOCK))) {
          Files.deleteIfExists(lock);
          log.warn("removed {}, taken at {} by a writer that did not finish", lock, taken);
          cleared = true;
        }
      } catch (NoSuchFileException e) {
        // not locked
      }
    }
    return cleared;
  }
}
