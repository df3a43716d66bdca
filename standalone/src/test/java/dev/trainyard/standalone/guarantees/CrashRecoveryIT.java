package dev.trainyard.standalone.guarantees;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.CiSimulator;
import dev.trainyard.standalone.support.GitHost;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.ShowsLogOnFailure;
import dev.trainyard.standalone.support.StandaloneProcess;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole standalone process is killed (SIGKILL) while PRs are being tested and landed, then
 * started again on the same data: every PR still lands, exactly once.
 */
@ExtendWith(ShowsLogOnFailure.class)
class CrashRecoveryIT {
  @TempDir(cleanup = org.junit.jupiter.api.io.CleanupMode.ON_SUCCESS)
  Path data;

  @Test
  void everyPullRequestLandsExactlyOnceAcrossAKill() throws Exception {
    int port = StandaloneProcess.freePort();
    String name = Api.uniqueRepo();
    StandaloneProcess first = StandaloneProcess.start(data, port);
    Api api = new Api("http://127.0.0.1:" + port, first.awaitToken());
    try (GitHost git = new GitHost(data.resolve("git"), "default", api, name);
        CiSimulator ci = new CiSimulator(git.repo(), api, name)) {
      QueueSteps.create(api, name, 3);
      for (long pr = 1; pr <= 6; pr++) {
        git.openPr(pr, "Add file " + pr, "dev" + pr, "f" + pr + ".txt", pr + "\n");
        QueueSteps.submit(api, name, pr);
      }
      QueueSteps.awaitState(api, name, 1, "merged");
      ci.hold(true); // so that the kill surely comes while runs are still in flight
      first.kill();
      assertThat(git.mainSubjects()).as("the kill came mid-flow").hasSizeLessThan(7);
      ci.hold(false);

      StandaloneProcess second = StandaloneProcess.start(data, port);
      try {
        second.awaitToken();
        for (long pr = 1; pr <= 6; pr++) {
          QueueSteps.awaitState(api, name, pr, "merged");
        }
        assertThat(git.mainSubjects()).isEqualTo(GitHost.landedInOrder(6));
      } finally {
        assertThat(second.stop()).isTrue();
      }
    } finally {
      first.kill();
    }
  }
}
