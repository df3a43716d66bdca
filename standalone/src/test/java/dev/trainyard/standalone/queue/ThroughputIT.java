package dev.trainyard.standalone.queue;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.QueueSteps.awaitState;
import static dev.trainyard.standalone.support.QueueSteps.create;
import static dev.trainyard.standalone.support.QueueSteps.pr;
import static dev.trainyard.standalone.support.QueueSteps.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.CiSimulator;
import dev.trainyard.standalone.support.QueueSteps;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Batching with bisection, optimistic merge and parallel lanes end to end, on real git repositories
 * over real HTTP (issue 4's scenarios).
 */
class ThroughputIT extends QueueScenario {

  @Test
  void aBatchWithABrokenPullRequestIsBisectedTheGoodOnesLandAndTheBrokenOneFails()
      throws Exception {
    create(api, name, 2);
    update("\"state\":\"paused\"");
    for (long pr = 1; pr <= 8; pr++) {
      String file = pr == 5 ? CiSimulator.BROKEN : "f" + pr + ".txt";
      git.openPr(pr, "Add file " + pr, "dev" + pr, file, "change " + pr + "\n");
      submit(api, name, pr);
    }
    for (long pr = 1; pr <= 8; pr++) {
      awaitState(api, name, pr, "pending");
    }

    update(
        "\"state\":\"running\",\"batch\":true,\"batchingMinSize\":4,"
            + "\"batchingMaxWaitTimeMinutes\":0,"
            + "\"optimizationMode\":\"bisection_skip_redundant_tests\"");

    for (long pr : List.of(1L, 2L, 3L, 4L, 6L, 7L, 8L)) {
      awaitState(api, name, pr, "merged");
    }
    awaitState(api, name, 5, "failed");
    for (RevCommit commit : git.repo().allCommits(git.main())) {
      assertThat(git.repo().tree(commit)).doesNotContainKey(CiSimulator.BROKEN);
    }
    assertThat(git.repo().tree(git.main())).containsKeys("f1.txt", "f4.txt", "f6.txt", "f8.txt");
    List<JsonNode> events = events();
    long bisectionRuns =
        events.stream()
            .filter(e -> e.get("type").asString().equals("pull_request.testing"))
            .filter(e -> e.get("is_bisection").asBoolean())
            .map(e -> e.get("test_branch").asString())
            .distinct()
            .count();
    assertThat(bisectionRuns).isPositive();
    assertThat(ci.testRunsSeen())
        .as("test runs: fewer than one per PR, plus the bisection runs")
        .isLessThan(8 + (int) bisectionRuns);
    JsonNode batchFailed =
        events.stream()
            .filter(e -> e.get("type").asString().equals("pull_request_batch.failed"))
            .findFirst()
            .orElseThrow();
    assertThat(batchFailed.get("pr_numbers_in_batch").valueStream().map(JsonNode::asLong))
        .containsExactly(5L, 6L, 7L, 8L);
    assertThat(
            events.stream()
                .filter(e -> "BISECTION_REQUIRED".equals(text(e, "queued_reason")))
                .map(e -> e.get("pr_number").asLong())
                .collect(Collectors.toSet()))
        .isEqualTo(Set.of(5L, 6L, 7L, 8L));
    assertThat(events.stream().filter(e -> e.get("type").asString().equals("pull_request.failed")))
        .extracting(e -> e.get("pr_number").asLong())
        .containsOnly(5L);
  }

  @Test
  void aFlakyRedRunIsRescuedByTheGreenRunBehindItWithOptimisticMerge() throws Exception {
    // the suite flakes on the tree of PR 1 alone, and passes on the tree that adds PR 2 to it
    ci.redWhen(tree -> tree.containsKey("a.txt") && !tree.containsKey("b.txt"));
    create(api, name, 2);
    update("\"pendingFailureDepth\":1,\"canOptimisticallyMerge\":true,\"state\":\"paused\"");
    git.openPr(1, "Add a", "ann", "a.txt", "a\n");
    git.openPr(2, "Add b", "bob", "b.txt", "b\n");
    submit(api, name, 1);
    submit(api, name, 2);
    awaitState(api, name, 1, "pending");
    awaitState(api, name, 2, "pending");

    update("\"state\":\"running\"");

    JsonNode first = awaitState(api, name, 1, "merged");
    JsonNode second = awaitState(api, name, 2, "merged");
    assertThat(first.get("verifiedByTestRun").asString())
        .isEqualTo(second.get("verifiedByTestRun").asString());
    assertThat(git.repo().tree(git.main())).containsKeys("a.txt", "b.txt");
    List<JsonNode> events = events();
    assertThat(first(events, "pull_request.pending_failure", 1).get("failure_reason").asString())
        .isEqualTo("TEST_RUN_REQUIRED_STATUS_FAILED");
    assertThat(events.stream().filter(e -> e.get("type").asString().equals("pull_request.failed")))
        .isEmpty();
  }

  @Test
  void disjointTargetGroupsTestSideBySideAndAPullRequestImpactingAllWaitsForBoth()
      throws Exception {
    ci.hold(true);
    create(api, name, 2);
    update("\"mode\":\"parallel\"");
    ObjectId api1 = git.openPr(1, "Change the api", "ann", "api/a.txt", "a\n");
    ObjectId web2 = git.openPr(2, "Change the web app", "bob", "web/b.txt", "b\n");
    ObjectId all3 = git.openPr(3, "Bump the toolchain", "cid", "toolchain.txt", "17\n");
    targets(1, api1, "[\"//api:server\"]");
    targets(2, web2, "[\"//web:app\"]");
    targets(3, all3, "\"ALL\"");
    for (long pr = 1; pr <= 3; pr++) {
      submit(api, name, pr);
    }

    awaitState(api, name, 1, "testing");
    awaitState(api, name, 2, "testing");
    Awaitility.await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                ci.testBranches().size() == 2
                    && pr(api, name, 3).get("state").asString().equals("pending"));
    List<JsonNode> runs =
        ci.testBranches().keySet().stream()
            .map(branch -> details(branch.substring("trainyard-merge/main/".length())))
            .toList();
    assertThat(runs)
        .extracting(r -> r.get("testedPullRequests").get(0).get("prNumber").asLong())
        .containsExactlyInAnyOrder(1L, 2L);
    assertThat(runs).allMatch(r -> r.get("dependentPrs").isEmpty());
    assertThat(runs).allMatch(r -> r.get("waitingOnTestRunIds").isEmpty());
    assertThat(runs)
        .extracting(r -> r.get("impactedTargetsForTestedPrs").get(0).asString())
        .containsExactlyInAnyOrder("//api:server", "//web:app");

    ci.hold(false);
    for (long pr = 1; pr <= 3; pr++) {
      awaitState(api, name, pr, "merged");
    }
    assertThat(git.repo().tree(git.main())).containsKeys("api/a.txt", "web/b.txt", "toolchain.txt");
    JsonNode third = details(pr(api, name, 3).get("verifiedByTestRun").asString());
    assertThat(third.get("impactedTargetsForTestedPrs").get(0).asString()).isEqualTo("ALL");
    Awaitility.await().atMost(QueueSteps.PATIENCE).until(() -> ci.testBranches().isEmpty());
  }

  private void targets(long pr, ObjectId sha, String targets) {
    QueueSteps.impactedTargets(api, name, pr, sha.name(), targets);
  }

  private JsonNode details(String runId) {
    return api.post(
            "/v1/getMergeQueueTestingDetails", body(name, "\"testRunId\":\"" + runId + "\""))
        .json();
  }
}
