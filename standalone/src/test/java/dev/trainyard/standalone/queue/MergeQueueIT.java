package dev.trainyard.standalone.queue;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.Api.prBody;
import static dev.trainyard.standalone.support.QueueSteps.awaitPr;
import static dev.trainyard.standalone.support.QueueSteps.awaitState;
import static dev.trainyard.standalone.support.QueueSteps.create;
import static dev.trainyard.standalone.support.QueueSteps.pr;
import static dev.trainyard.standalone.support.QueueSteps.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.CiSimulator;
import dev.trainyard.standalone.support.GitHost;
import dev.trainyard.standalone.support.QueueSteps;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The merge queue end to end over real HTTP: bare git repositories under the git root, a CI
 * simulator that watches the test branches and reports statuses, and the worker building, testing
 * and landing the pull requests.
 */
class MergeQueueIT extends QueueScenario {

  @Test
  void goodPullRequestsAllLandInOrderWithinTheConcurrency() throws Exception {
    create(api, name, 3);
    for (long pr = 1; pr <= 6; pr++) {
      git.openPr(pr, "Add file " + pr, "dev" + pr, "f" + pr + ".txt", "change " + pr + "\n");
      submit(api, name, pr);
    }

    for (long pr = 1; pr <= 6; pr++) {
      awaitState(api, name, pr, "merged");
    }

    assertThat(git.mainSubjects()).isEqualTo(GitHost.landedInOrder(6));
    assertThat(git.repo().tree(git.main())).containsKeys("f1.txt", "f6.txt");
    assertThat(ci.maxTestedAtOnce()).isBetween(1, 3);
    Awaitility.await().atMost(QueueSteps.PATIENCE).until(() -> ci.testBranches().isEmpty());

    JsonNode merged = pr(api, name, 6);
    String runId = merged.get("verifiedByTestRun").asString();
    JsonNode details =
        api.post("/v1/getMergeQueueTestingDetails", body(name, "\"testRunId\":\"" + runId + "\""))
            .json();
    assertThat(details.get("status").asString()).isEqualTo("succeeded");
    assertThat(details.get("testBranch").asString()).isEqualTo("trainyard-merge/main/" + runId);
    assertThat(details.get("statusChecks").get(0).get("state").asString()).isEqualTo("SUCCESS");
    assertThat(details.get("testedPullRequests").get(0).get("prNumber").asLong()).isEqualTo(6);
    assertThat(details.get("requiredStatusesSource").asString()).isEqualTo("merge_instance");

    List<JsonNode> events = events();
    JsonNode testing = first(events, "pull_request.testing", 1);
    assertThat(testing.get("test_branch").asString()).startsWith("trainyard-merge/main/");
    assertThat(testing.get("test_branch_sha").asString()).hasSize(40);
    assertThat(testing.get("batched").asBoolean()).isFalse();
    assertThat(testing.get("is_bisection").asBoolean()).isFalse();
    JsonNode landed = first(events, "pull_request.merged", 1);
    assertThat(landed.get("merged_reason").asString()).isEqualTo("MERGE_GRAPH_MERGE");
    assertThat(landed.get("status").asString()).isEqualTo("merged");
    assertThat(events.stream().filter(e -> e.get("type").asString().equals("pull_request.merged")))
        .hasSize(6);

    // what CI cost per merged PR: six runs of seconds each, over six merged PRs
    JsonNode queue = api.post("/v1/getQueue", body(name, "")).json();
    assertThat(queue.get("ciMinutesPerMerge").isNumber()).as(queue.toString()).isTrue();
    assertThat(queue.get("ciMinutesPerMerge").asDouble()).isBetween(0.0, 1.0);
    assertThat(queue.get("overCiBudget").asBoolean()).isFalse();
  }

  @Test
  void aBrokenPullRequestFailsAndNeverReachesTheTarget() throws Exception {
    create(api, name, 3);
    git.openPr(1, "Add a", "ann", "a.txt", "a\n");
    git.openPr(2, "Break the build", "bob", CiSimulator.BROKEN, "x\n");
    git.openPr(3, "Add c", "cid", "c.txt", "c\n");
    for (long pr = 1; pr <= 3; pr++) {
      submit(api, name, pr);
    }

    awaitState(api, name, 1, "merged");
    awaitState(api, name, 2, "failed");
    awaitState(api, name, 3, "merged");

    for (RevCommit commit : git.repo().allCommits(git.main())) {
      assertThat(git.repo().tree(commit)).doesNotContainKey(CiSimulator.BROKEN);
    }
    JsonNode failed = first(events(), "pull_request.failed", 2);
    assertThat(failed.get("failure_reason").asString())
        .isEqualTo("TEST_RUN_REQUIRED_STATUS_FAILED");
  }

  @Test
  void ofTwoConflictingPullRequestsOneLandsAndTheOtherNever() throws Exception {
    create(api, name, 2);
    git.openPr(1, "Greet the world", "ann", "README", "hello world\n");
    git.openPr(2, "Greet everyone", "bob", "README", "hello everyone\n");
    submit(api, name, 1);
    submit(api, name, 2);

    awaitState(api, name, 1, "merged");
    JsonNode second =
        awaitPr(api, name, 2, pr -> pr.get("state").asString().matches("failed|not_ready"));

    assertThat(git.repo().tree(git.main())).containsEntry("README", "hello world\n");
    assertThat(second.get("state").asString()).isNotEqualTo("merged");
    for (RevCommit commit : git.repo().allCommits(git.main())) {
      assertThat(git.repo().tree(commit).get("README")).isNotEqualTo("hello everyone\n");
    }
  }

  @Test
  void cancellingWhileTestingStopsTheRunAndDeletesItsBranch() throws Exception {
    pullRequestUnderTest(2);

    assertThat(api.post("/v1/cancelPullRequest", prBody(name, 1)).status()).isEqualTo(200);

    assertThat(pr(api, name, 1).get("state").asString()).isEqualTo("cancelled");
    Awaitility.await().atMost(QueueSteps.PATIENCE).until(() -> ci.testBranches().isEmpty());
    ci.hold(false);
    assertThat(git.mainSubjects()).containsExactly("Initial commit");
  }

  @Test
  void restartingTestsGivesTheRunANewId() throws Exception {
    pullRequestUnderTest(2);
    String before = ci.testBranches().keySet().iterator().next();

    assertThat(api.post("/v1/restartTestsOnPullRequest", prBody(name, 1)).status()).isEqualTo(200);

    Awaitility.await()
        .atMost(QueueSteps.PATIENCE)
        .until(() -> ci.testBranches().keySet(), b -> b.size() == 1 && !b.contains(before));
    String after = ci.testBranches().keySet().iterator().next();
    ci.hold(false);
    JsonNode merged = awaitState(api, name, 1, "merged");
    assertThat("trainyard-merge/main/" + merged.get("verifiedByTestRun").asString())
        .isEqualTo(after);
    assertThat(
            events().stream()
                .filter(e -> "TESTS_RESTARTED_BY_API_REQUEST".equals(text(e, "queued_reason"))))
        .hasSize(1);
  }

  @Test
  void aPullRequestPushedToWhileTestingIsCancelled() throws Exception {
    pullRequestUnderTest(2);

    git.pushTo(1, "Fix a", "a.txt", "a2\n");

    awaitState(api, name, 1, "cancelled");
    ci.hold(false);
    assertThat(first(events(), "pull_request.canceled", 1).get("cancellation_reason").asString())
        .isEqualTo("PR_PUSHED_TO");
    assertThat(git.mainSubjects()).containsExactly("Initial commit");
  }

  @Test
  void aTargetMovedBySomeoneElseDuringARunIsNeverOverwritten() throws Exception {
    pullRequestUnderTest(1);

    ObjectId hotfix = git.pushToMain("Hotfix by hand", "hotfix.txt", "fix\n");
    ci.hold(false);

    awaitState(api, name, 1, "merged");
    assertThat(git.mainSubjects())
        .containsExactly("Merge pull request #1: Add a", "Hotfix by hand", "Initial commit");
    assertThat(git.repo().tree(git.main())).containsKeys("a.txt", "hotfix.txt");
    assertThat(git.repo().history(git.main(), null).stream().map(RevCommit::getId))
        .as("the hand-pushed commit stays on main")
        .contains(hotfix);
  }

  @Test
  void aPausedQueueStartsNothingUntilResumed() throws Exception {
    create(api, name, 2);
    assertThat(api.post("/v1/updateQueue", body(name, "\"state\":\"paused\"")).status())
        .isEqualTo(200);
    git.openPr(1, "Add a", "ann", "a.txt", "a\n");
    submit(api, name, 1);
    awaitState(api, name, 1, "pending");

    Awaitility.await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(5))
        .until(
            () ->
                ci.testBranches().isEmpty()
                    && pr(api, name, 1).get("state").asString().equals("pending"));

    assertThat(api.post("/v1/updateQueue", body(name, "\"state\":\"running\"")).status())
        .isEqualTo(200);
    awaitState(api, name, 1, "merged");
  }
}
