package dev.trainyard.standalone.queue;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.QueueSteps.awaitState;
import static dev.trainyard.standalone.support.QueueSteps.create;
import static dev.trainyard.standalone.support.QueueSteps.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.QueueSteps;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The engine's promises end to end on real git (issue 47): an urgent PR that depends on one under
 * test lands after it and the queue goes on; a batch red once by a flake fails nobody; what a
 * rebase lands is the tree CI tested, or nothing moves.
 */
class EngineCorrectnessIT extends QueueScenario {

  @Test
  void anUrgentPullRequestDependingOnOneUnderTestLandsAfterItAndTheQueueGoesOn() throws Exception {
    pullRequestUnderTest(2);
    git.openPr(2, "Fix the release", "bob", "fix.txt", "fix\n");
    assertThat(
            api.post(
                    "/v1/submitPullRequest",
                    body(name, "\"pr\":{\"number\":2},\"priority\":\"urgent\",\"dependsOn\":[1]"))
                .status())
        .isEqualTo(200);
    awaitState(api, name, 2, "testing");
    ci.hold(false);

    awaitState(api, name, 1, "merged");
    awaitState(api, name, 2, "merged");
    git.openPr(3, "Add c", "cid", "c.txt", "c\n");
    submit(api, name, 3);
    awaitState(api, name, 3, "merged");

    assertThat(git.mainSubjects())
        .containsSubsequence(
            "Merge pull request #3: Add c",
            "Merge pull request #2: Fix the release",
            "Merge pull request #1: Add a");
    assertThat(events())
        .as("the run holding its dependency was never interrupted")
        .noneMatch(e -> "SKIP_THE_LINE_INTERRUPTED".equals(text(e, "queued_reason")));
  }

  @Test
  void aDependencyMergedByHandIsReadFromTheRepositoryAndNoLongerHoldsThePullRequest()
      throws Exception {
    create(api, name, 2);
    ObjectId dependency = git.openPr(1, "Add a", "ann", "a.txt", "a\n");
    git.openPr(2, "Use a", "bob", "b.txt", "b\n");
    assertThat(
            api.post("/v1/submitPullRequest", body(name, "\"pr\":{\"number\":2},\"dependsOn\":[1]"))
                .status())
        .isEqualTo(200);
    JsonNode waiting =
        QueueSteps.awaitPr(
            api,
            name,
            2,
            pr -> pr.get("readiness").get("notReadyReason").asString("").contains("#1"));
    assertThat(waiting.get("readiness").get("notReadyReason").asString())
        .isEqualTo("it depends on pull request #1, which is not in the queue; submit it too");

    git.repo().setRef("refs/heads/main", dependency); // someone lands #1 by hand
    git.notifyPush();

    awaitState(api, name, 2, "merged");
    assertThat(git.repo().tree(git.main())).containsKeys("a.txt", "b.txt");
  }

  @Test
  void aBatchOfTwoGoodPullRequestsRedOnceByAFlakeLandsBoth() throws Exception {
    create(api, name, 2);
    update("\"state\":\"paused\"");
    git.openPr(1, "Add a", "ann", "a.txt", "a\n");
    git.openPr(2, "Add b", "bob", "b.txt", "b\n");
    submit(api, name, 1);
    submit(api, name, 2);
    awaitState(api, name, 1, "pending");
    awaitState(api, name, 2, "pending");
    AtomicInteger flakes = new AtomicInteger();
    // the batch's one run is red by a flake; every later run of the same code is green
    ci.redWhen(
        tree ->
            tree.containsKey("a.txt")
                && tree.containsKey("b.txt")
                && flakes.getAndIncrement() == 0);

    update(
        "\"state\":\"running\",\"batch\":true,\"batchingMinSize\":2,"
            + "\"batchingMaxWaitTimeMinutes\":0,\"bisectionConcurrency\":1,"
            + "\"optimizationMode\":\"bisection_skip_redundant_tests\"");

    awaitState(api, name, 1, "merged");
    awaitState(api, name, 2, "merged");
    assertThat(flakes.get()).as("the flake happened").isPositive();
    List<JsonNode> events = events();
    assertThat(events).anyMatch(e -> e.get("type").asString().equals("pull_request_batch.failed"));
    assertThat(events).noneMatch(e -> e.get("type").asString().equals("pull_request.failed"));
    assertThat(git.repo().tree(git.main())).containsKeys("a.txt", "b.txt");
  }

  @Test
  void aRebasedPullRequestWhoseBranchMergedMainLandsTheTestedTreeOrNothingMoves() throws Exception {
    assertThat(
            api.post("/v1/createQueue", body(name, "\"concurrency\":1,\"mergeMethod\":\"rebase\""))
                .status())
        .isEqualTo(200);
    // PR 1 merged main into its branch to catch up: the merge adds nothing of its own
    ObjectId cleanMerge = branchThatMergedMain(1, "b.txt", null);
    submit(api, name, 1);
    awaitState(api, name, 1, "merged");
    Map<String, String> landed = git.repo().tree(git.main());
    assertThat(landed).isEqualTo(git.repo().tree(cleanMerge)).containsKeys("b.txt", "m1.txt");
    for (RevCommit commit : git.repo().history(git.main(), null)) {
      assertThat(commit.getParentCount()).as("rebased: no merge commit lands").isLessThan(2);
    }

    // PR 2's merge of main also added a file: a rebase would drop it, so nothing lands
    branchThatMergedMain(2, "c.txt", "extra.txt");
    ObjectId before = git.main();
    submit(api, name, 2);
    awaitState(api, name, 2, "failed");

    assertThat(git.main()).isEqualTo(before);
    assertThat(text(first(events(), "pull_request.failed", 2), "failure_reason"))
        .isEqualTo("LANDED_TREE_DIFFERS");
  }

  /**
   * PR {@code number}: a commit adding {@code file} on main, then main moves ({@code m<n>.txt}),
   * then the branch merges main; {@code extra}, when given, is a file the merge commit itself adds.
   */
  private ObjectId branchThatMergedMain(long number, String file, String extra) throws Exception {
    ObjectId start = git.main();
    Map<String, String> own = new TreeMap<>(git.repo().tree(start));
    own.put(file, file + "\n");
    ObjectId ownCommit = git.repo().commit(start, own, "Add " + file, "ann");
    ObjectId moved = git.pushToMain("Add m" + number, "m" + number + ".txt", "m\n");
    Map<String, String> merged = new TreeMap<>(git.repo().tree(moved));
    merged.put(file, file + "\n");
    if (extra != null) {
      merged.put(extra, "added while merging main\n");
    }
    ObjectId head =
        git.repo().commitOf(List.of(ownCommit, moved), merged, "Merge main into pr", "ann");
    git.repo().setRef("refs/pull/" + number + "/head", head);
    git.notifyPush();
    return head;
  }
}
