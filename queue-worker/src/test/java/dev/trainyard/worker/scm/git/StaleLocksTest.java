package dev.trainyard.worker.scm.git;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which ref locks count as left by a writer that died, in a real bare repository. */
class StaleLocksTest {
  private static final Duration OLD = StaleLocks.STALE.plusSeconds(5);
  private static final Duration YOUNG = StaleLocks.STALE.minusSeconds(5);
  @TempDir Path root;
  private BareRepo repo;

  @BeforeEach
  void repository() throws IOException {
    repo = new BareRepo(root.resolve("rocket.git"));
  }

  @AfterEach
  void close() {
    repo.close();
  }

  @Test
  void removesEveryRefLockOlderThanStaleAndNoYoungerOne() throws IOException {
    Path target = lock("refs/heads/main.lock", OLD);
    Path nested = lock("refs/heads/trainyard-merge/main/run-1.lock", OLD);
    Path packed = lock("packed-refs.lock", OLD);
    Path live = lock("refs/heads/release.lock", YOUNG);
    Path notALock = lock("refs/heads/main", OLD);

    assertThat(StaleLocks.clear(repo.repository())).isTrue();

    assertThat(target).doesNotExist();
    assertThat(nested).doesNotExist();
    assertThat(packed).doesNotExist();
    assertThat(live).exists();
    assertThat(notALock).exists();
    assertThat(StaleLocks.clear(repo.repository())).as("nothing left to remove").isFalse();
  }

  private Path lock(String name, Duration age) throws IOException {
    Path file = repo.repository().getDirectory().toPath().resolve(name);
    Files.createDirectories(file.getParent());
    Files.write(file, new byte[0]);
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
    return file;
  }
}
