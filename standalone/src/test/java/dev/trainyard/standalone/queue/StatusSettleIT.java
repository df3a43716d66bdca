package dev.trainyard.standalone.queue;

import static dev.trainyard.standalone.support.QueueSteps.awaitState;
import static dev.trainyard.standalone.support.QueueSteps.create;
import static dev.trainyard.standalone.support.QueueSteps.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.GitHost;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.TestStack;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The plain-git rule with {@code requiredStatuses} null (API.md §3), on real git with a settle time
 * of 10 s: a second context that appears 5 s after the first succeeded holds the run until it
 * concludes; with none, the run lands once the settle time has passed, not before.
 */
class StatusSettleIT extends OwnStack {
  private static final Duration SETTLE = Duration.ofSeconds(10);
  private final Path gitRoot = GitHost.newRoot();

  @Override
  protected Map<String, Object> properties() {
    return Map.of("trainyard.git.root", gitRoot.toString(), "trainyard.status-settle", "10s");
  }

  @Test
  void aContextThatAppearsWithinTheSettleTimeHoldsTheRun() throws Exception {
    Api api = stack.api();
    String name = Api.uniqueRepo();
    try (GitHost git = new GitHost(gitRoot, TestStack.ORG, api, name)) {
      String head = testing(api, name, git);

      QueueSteps.reportStatus(api, name, head, "ci/fast", "success");
      // the slow pipeline posts its first status 5 s later; until then the run waits
      Awaitility.await()
          .during(Duration.ofSeconds(5))
          .atMost(Duration.ofSeconds(7))
          .until(() -> state(api, name).equals("testing"));
      QueueSteps.reportStatus(api, name, head, "ci/slow", "pending");
      Awaitility.await()
          .during(SETTLE.plusSeconds(2))
          .atMost(SETTLE.plusSeconds(5))
          .until(() -> state(api, name).equals("testing"));

      QueueSteps.reportStatus(api, name, head, "ci/slow", "success");
      long concluded = System.nanoTime();
      awaitState(api, name, 1, "merged");
      assertThat(Duration.ofNanos(System.nanoTime() - concluded))
          .as("it still waits the settle time after the last conclusion")
          .isGreaterThanOrEqualTo(SETTLE.minusMillis(500));
      assertThat(git.main().name()).isEqualTo(head);
    }
  }

  @Test
  void withNoNewContextTheRunLandsAfterTheSettleTime() throws Exception {
    Api api = stack.api();
    String name = Api.uniqueRepo();
    try (GitHost git = new GitHost(gitRoot, TestStack.ORG, api, name)) {
      String head = testing(api, name, git);

      long reported = System.nanoTime();
      QueueSteps.reportStatus(api, name, head, "ci/test", "success");
      awaitState(api, name, 1, "merged");

      Duration waited = Duration.ofNanos(System.nanoTime() - reported);
      System.out.println(
          "plain git, settle 10 s: status to merged in " + waited.toMillis() + " ms");
      assertThat(waited).isGreaterThanOrEqualTo(SETTLE.minusMillis(500));
      assertThat(waited).isLessThan(QueueSteps.PATIENCE);
    }
  }

  /** PR 1 of a new queue on {@code git}, submitted: its run's head once its branch exists. */
  private static String testing(Api api, String name, GitHost git) throws java.io.IOException {
    create(api, name, 1);
    git.openPr(1, "Add a", "alice", "a.txt", "a\n");
    submit(api, name, 1);
    return QueueSteps.testBranchHead(git.repo());
  }

  private static String state(Api api, String name) {
    return QueueSteps.pr(api, name, 1).get("state").asString();
  }
}
