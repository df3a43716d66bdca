package dev.trainyard.worker.scm.git;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.eclipse.jgit.lib.Repository;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ref locks left by a writer that died. A writer killed in the middle of a ref update (SIGKILL, OOM
 * kill, node loss) leaves {@code <ref>.lock} (or {@code packed-refs.lock}) behind, and git refuses
 * that ref to every later writer for as long as it is there. A ref update holds its lock for
 * milliseconds, so a lock older than {@link #STALE} belongs to a writer that is gone: it is removed
 * and the caller tries once more.
 *
 * <p>Removal is serialized within the process and re-reads the lock's age just before removing it.
 * What it cannot rule out is another process taking the same path in between, or a writer that
 * stalled for {@link #STALE} while holding a lock; neither happens to an update that takes
 * milliseconds and is the only writer of its ref (one worker owns a queue, hence its target).
 */
final class StaleLocks {
  /** How old a ref lock must be before it counts as left by a writer that died. */
  static final Duration STALE = Duration.ofSeconds(30);

  private static final Logger log = LoggerFactory.getLogger(StaleLocks.class);

  private StaleLocks() {}

  /**
   * Removes the stale ref locks of {@code repository} (under {@code refs/}, and the packed refs');
   * answers whether it removed any, that is whether trying again can succeed.
   */
  static synchronized boolean clear(Repository repository) throws IOException {
    Path dir = repository.getDirectory().toPath();
    List<Path> locks = new ArrayList<>();
    locks.add(dir.resolve("packed-refs.lock"));
    Path refs = dir.resolve("refs");
    if (Files.isDirectory(refs)) {
      try (Stream<Path> files = Files.walk(refs)) {
        files.filter(f -> f.getFileName().toString().endsWith(".lock")).forEach(locks::add);
      } catch (UncheckedIOException e) {
        throw e.getCause(); // a folder went away while it was read (a ref deleted): try later
      }
    }
    boolean cleared = false;
    Instant staleBefore = Instant.now().minus(STALE);
    for (Path lock : locks) {
      try {
        Instant taken = Files.getLastModifiedTime(lock).toInstant();
        if (taken.isBefore(staleBefore)) {
          Files.delete(lock);
          log.warn("removed {}, taken at {} by a writer that did not finish", lock, taken);
          cleared = true;
        }
      } catch (NoSuchFileException e) {
        // released meanwhile
      }
    }
    return cleared;
  }
}
