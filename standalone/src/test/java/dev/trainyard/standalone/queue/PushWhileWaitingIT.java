package dev.trainyard.standalone.queue;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.QueueSteps.awaitState;
import static dev.trainyard.standalone.support.QueueSteps.create;
import static dev.trainyard.standalone.support.QueueSteps.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.EventLog;
import dev.trainyard.standalone.support.GitHost;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.TestStack;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What was submitted is what lands, on real git: a PR pushed to while it waits behind a run that is
 * testing leaves the queue ({@code PR_PUSHED_TO}), and the target never gets the pushed commit.
 * Before, only a PR in a test run was cancelled; a waiting one took the new head and landed it (#82
 * merged with the commit pushed after it was submitted).
 */
class PushWhileWaitingIT extends OwnStack {
  private final Path gitRoot = GitHost.newRoot();

  @Override
  protected Map<String, Object> properties() {
    return Map.of("trainyard.git.root", gitRoot.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"single", "parallel"})
  void aPullRequestPushedToWhileWaitingLeavesTheQueue(String mode) throws Exception {
    Api api = stack.api();
    String name = Api.uniqueRepo();
    try (GitHost git = new GitHost(gitRoot, TestStack.ORG, api, name)) {
      create(api, name, 1);
      Api.Response updated =
          api.post(
              "/v1/updateQueue",
              body(name, "\"mode\":\"" + mode + "\",\"requiredStatuses\":[\"ci/test\"]"));
      assertThat(updated.status()).as(updated.body()).isEqualTo(200);
      ObjectId first = git.openPr(81, "Add a", "alice", "a.txt", "a\n");
      ObjectId second = git.openPr(82, "Add b", "bob", "b.txt", "b\n");
      if (mode.equals("parallel")) {
        // one lane: #82 waits for #81's slot
        QueueSteps.impactedTargets(api, name, 81, first.name(), "[\"app\"]");
        QueueSteps.impactedTargets(api, name, 82, second.name(), "[\"app\"]");
      }
      submit(api, name, 81);
      submit(api, name, 82);
      awaitState(api, name, 81, "testing");
      awaitState(api, name, 82, "pending");

      git.pushTo(82, "Add more to b", "b.txt", "b\n", "evil.txt", "pushed after the review\n");

      awaitState(api, name, 82, "cancelled");
      String tested = QueueSteps.testBranchHead(git.repo());
      QueueSteps.reportStatus(api, name, tested, "ci/test", "success");
      awaitState(api, name, 81, "merged");
      assertThat(git.repo().tree(git.main()))
          .containsKey("a.txt")
          .doesNotContainKey("b.txt")
          .doesNotContainKey("evil.txt");
      assertThat(
              EventLog.readAll(stack.infrastructure().kafkaBootstrap()).stream()
                  .filter(e -> e.type().equals("pull_request.canceled"))
                  .filter(e -> e.body().path("repository").path("name").asString("").equals(name))
                  .map(e -> e.body().get("cancellation_reason").asString()))
          .containsExactly("PR_PUSHED_TO");
    }
  }
}
