package dev.trainyard.worker.scm.git;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
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
    Path target = repo.fileAged("refs/heads/main.lock", OLD);
    Path nested = repo.fileAged("refs/heads/trainyard-merge/main/run-1.lock", OLD);
    Path packed = repo.fileAged("packed-refs.lock", OLD);
    Path live = repo.fileAged("refs/heads/release.lock", YOUNG);
    Path notALock = repo.fileAged("refs/heads/main", OLD);

    assertThat(StaleLocks.clear(repo.repository())).isTrue();

    assertThat(target).doesNotExist();
    assertThat(nested).doesNotExist();
    assertThat(packed).doesNotExist();
    assertThat(live).exists();
    assertThat(notALock).exists();
    assertThat(StaleLocks.clear(repo.repository())).as("nothing left to remove").isFalse();
  }
}
