package dev.trainyard.worker.scm.git;

import java.io.IOException;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;

/**
 * Where the git adapter reads and writes one organization's repository: a bare repository under the
 * git root ({@link LocalPlace}), or the mirror of a remote one ({@link RemoteMirror}). Commits are
 * built in {@link #repository()}; refs move only through {@link #update} and {@link #delete}, which
 * state the value they expect to replace.
 */
interface GitPlace extends AutoCloseable {
  /** What {@link #update} did: moved the ref, or found it elsewhere than expected. */
  enum Update {
    MOVED,
    REFUSED
  }

  /** The repository to read and to build commits in. */
  Repository repository();

  /**
   * Brings {@link #repository()} up to date with where the refs live (a remote's fetch); nothing
   * for a repository on disk.
   *
   * @throws IOException with one sentence that says why the repository cannot be reached
   */
  void sync() throws IOException;

  /**
   * Moves {@code ref} to {@code newId}. With {@code expectedOld} (zero: the ref must not exist) it
   * moves only from there, by fast-forward, and otherwise is {@link Update#REFUSED}; without, it
   * replaces whatever the ref holds (trainyard's own test branches).
   */
  Update update(String ref, ObjectId expectedOld, ObjectId newId) throws IOException;

  /** Deletes {@code ref}; deleting one that does not exist is not an error. */
  void delete(String ref) throws IOException;

  @Override
  void close();
}
