package dev.trainyard.standalone.queue;

import static dev.trainyard.standalone.support.QueueSteps.awaitState;
import static dev.trainyard.standalone.support.QueueSteps.create;
import static dev.trainyard.standalone.support.QueueSteps.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.GitHost;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A writer killed in the middle of a ref update leaves the ref's lock file behind, and git refuses
 * that ref to everyone while it is there. The worker removes a lock older than any ref update takes
 * and lands the PR once; it does not take the refused update for a moved target, which rebuilt
 * every run after each pass for as long as the lock stayed (a CI run of CrashRecoveryIT rebuilt
 * 1,421 runs in 90 s behind the lock of the worker it had killed).
 */
class AbandonedRefLockIT extends QueueScenario {

  @Test
  void aTargetLockLeftByAWriterThatDiedIsClearedAndThePullRequestLandsOnce() throws Exception {
    Path lock = git.repo().fileAged("refs/heads/main.lock", Duration.ofMinutes(5));
    create(api, name, 1);
    git.openPr(1, "Add file 1", "dev1", "f1.txt", "1\n");

    submit(api, name, 1);

    awaitState(api, name, 1, "merged");
    assertThat(git.mainSubjects()).isEqualTo(GitHost.landedInOrder(1));
    assertThat(ci.testRunsSeen()).as("test runs, none rebuilt").isEqualTo(1);
    assertThat(lock).doesNotExist();
  }
}
