package dev.trainyard.standalone.queue;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.Api.prBody;
import static dev.trainyard.standalone.support.QueueSteps.awaitState;
import static dev.trainyard.standalone.support.QueueSteps.create;
import static dev.trainyard.standalone.support.QueueSteps.pr;
import static dev.trainyard.standalone.support.QueueSteps.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.CiSimulator;
import dev.trainyard.standalone.support.QueueSteps;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * Queue controls end to end on real git (API.md §2 {@code dependsOn}, {@code queuePosition}; §3
 * {@code mergeWindows}, {@code freeze}; §6 freezeQueue): a freeze during a flow lets the runs
 * finish and lands nothing until unfrozen, then lands them without new runs; a dependency chain
 * submitted in reverse order lands in dependency order; a failed middle PR cancels the last; a
 * pause and a settings change are announced ({@code queue.updated}); a {@code mergeCommitMessage}
 * template writes the landed commits (squash and merge commit); bad input is refused naming its
 * field, storing nothing.
 */
class QueueControlsIT extends QueueScenario {

  private void submitDependent(long pr, long... on) {
    StringBuilder list = new StringBuilder();
    for (long n : on) {
      list.append(list.length() == 0 ? "" : ",").append(n);
    }
    String extra = "\"pr\":{\"number\":" + pr + "},\"dependsOn\":[" + list + "]";
    assertThat(api.post("/v1/submitPullRequest", body(name, extra)).status()).isEqualTo(200);
  }

  private JsonNode queue() {
    return api.post("/v1/getQueue", body(name, "")).json();
  }

  @Test
  void aFreezeLetsRunsFinishLandsNothingAndUnfreezingLandsThemWithoutNewRuns() throws Exception {
    ci.hold(true);
    create(api, name, 2);
    git.openPr(1, "Add a", "ann", "a.txt", "a\n");
    git.openPr(2, "Add b", "bob", "b.txt", "b\n");
    submit(api, name, 1);
    submit(api, name, 2);
    awaitState(api, name, 2, "testing");

    String freeze = "\"reason\":\"release 4.2 goes out\"";
    assertThat(api.post("/v1/freezeQueue", body(name, freeze)).status()).isEqualTo(200);
    ci.hold(false);
    String run1 = awaitState(api, name, 1, "tests_passed").get("verifiedByTestRun").asString();
    String run2 = awaitState(api, name, 2, "tests_passed").get("verifiedByTestRun").asString();
    Awaitility.await()
        .during(Duration.ofSeconds(3))
        .atMost(Duration.ofSeconds(6))
        .until(() -> git.mainSubjects().equals(List.of("Initial commit")));
    JsonNode frozen = queue().get("freeze");
    assertThat(frozen.get("reason").asString()).isEqualTo("release 4.2 goes out");
    assertThat(frozen.get("until").isNull()).isTrue();
    int runs = ci.testRunsSeen();

    assertThat(api.post("/v1/unfreezeQueue", body(name, "")).status()).isEqualTo(200);

    assertThat(awaitState(api, name, 1, "merged").get("verifiedByTestRun").asString())
        .isEqualTo(run1);
    assertThat(awaitState(api, name, 2, "merged").get("verifiedByTestRun").asString())
        .isEqualTo(run2);
    assertThat(ci.testRunsSeen()).as("no run after the unfreeze").isEqualTo(runs);
    assertThat(git.mainSubjects())
        .containsExactly(
            "Merge pull request #2: Add b", "Merge pull request #1: Add a", "Initial commit");
    assertThat(queue().get("freeze").isNull()).isTrue();
    List<JsonNode> events = events();
    JsonNode frozenEvent = only(events, "queue.frozen");
    assertThat(frozenEvent.get("reason").asString()).isEqualTo("release 4.2 goes out");
    assertThat(frozenEvent.get("target_branch").asString()).isEqualTo("main");
    assertThat(only(events, "queue.unfrozen").get("expired").asBoolean()).isFalse();
  }

  private static JsonNode only(List<JsonNode> events, String type) {
    List<JsonNode> found =
        events.stream().filter(e -> e.get("type").asString().equals(type)).toList();
    assertThat(found).as(type).hasSize(1);
    return found.get(0);
  }

  @Test
  void aPauseAndASettingsChangeAreAnnouncedAsQueueUpdated() {
    create(api, name, 1);
    assertThat(api.post("/v1/updateQueue", body(name, "\"state\":\"paused\"")).status())
        .isEqualTo(200);
    assertThat(api.post("/v1/updateQueue", body(name, "\"concurrency\":3")).status())
        .isEqualTo(200);
    String version = queue().get("settingsVersion").asString();

    List<JsonNode> updates =
        Awaitility.await()
            .atMost(QueueSteps.PATIENCE)
            .until(
                () ->
                    events().stream()
                        .filter(e -> e.get("type").asString().equals("queue.updated"))
                        .toList(),
                found -> found.size() == 2);
    assertThat(updates.get(0).get("state").asString()).isEqualTo("paused");
    assertThat(updates.get(1).get("state").asString()).isEqualTo("paused");
    assertThat(updates.get(1).get("settings_version").asString()).isEqualTo(version);
    assertThat(updates.get(1).get("target_branch").asString()).isEqualTo("main");
    for (JsonNode update : updates) {
      assertThat(
              Api.contract()
                  .checkWebhook(
                      "queue.updated",
                      java.util.Set.of(
                          "webhook-id",
                          "webhook-timestamp",
                          "webhook-signature",
                          "svix-id",
                          "svix-timestamp",
                          "svix-signature"),
                      update.toString()))
          .as("docs/openapi.yaml's queue.updated")
          .isEmpty();
    }
  }

  @Test
  void aDependencyChainSubmittedInReverseOrderLandsInDependencyOrder() throws Exception {
    create(api, name, 3);
    git.openPr(1, "Add the API", "ann", "api.txt", "api\n");
    git.openPr(2, "Use the API", "bob", "use.txt", "use\n");
    // the source host declares the last link: a Depends-On line in the head commit's message
    git.openPr(3, "Document it\n\nDepends-On: #2", "cid", "doc.txt", "doc\n");
    submit(api, name, 3);
    submitDependent(2, 1);
    String waits = "it depends on pull request #1, which is not in the queue; submit it too";
    QueueSteps.awaitPr(
        api, name, 2, pr -> waits.equals(pr.get("readiness").get("notReadyReason").asString("")));
    assertThat(pr(api, name, 2).get("dependsOn").toString()).isEqualTo("[1]");
    // the source host's Depends-On line, once it has been read
    QueueSteps.awaitPr(api, name, 3, pr -> pr.get("dependsOn").toString().equals("[2]"));
    submit(api, name, 1);

    landInOrder("Add the API", "Use the API", "Document it");
  }

  /** PRs 1, 2, … titled {@code titles} merge, and main holds their merges in that order. */
  private void landInOrder(String... titles) throws Exception {
    List<String> subjects = new java.util.ArrayList<>();
    for (int pr = 1; pr <= titles.length; pr++) {
      awaitState(api, name, pr, "merged");
      subjects.add(0, "Merge pull request #" + pr + ": " + titles[pr - 1]);
    }
    subjects.add("Initial commit");
    assertThat(git.mainSubjects()).containsExactlyElementsOf(subjects);
  }

  @Test
  void aFailedMiddlePrCancelsTheOneThatDependsOnIt() throws Exception {
    create(api, name, 3);
    git.openPr(1, "Add the API", "ann", "api.txt", "api\n");
    git.openPr(2, "Break the API", "bob", CiSimulator.BROKEN, "x\n");
    git.openPr(3, "Use the API", "cid", "use.txt", "use\n");
    submit(api, name, 1);
    submitDependent(2, 1);
    submitDependent(3, 2);

    awaitState(api, name, 1, "merged");
    awaitState(api, name, 2, "failed");
    awaitState(api, name, 3, "cancelled");
    JsonNode cancelled = first(events(), "pull_request.canceled", 3);
    assertThat(cancelled.get("cancellation_reason").asString()).isEqualTo("DEPENDENCY_FAILED");
    assertThat(cancelled.get("cancelled_by_pr").asLong())
        .as("names the PR that failed")
        .isEqualTo(2);
    assertThat(git.mainSubjects())
        .containsExactly("Merge pull request #1: Add the API", "Initial commit");
  }

  @Test
  void aStackOfThreeSubmittedFromItsTopLandsInOrderEachTestedOnTheOneBelow() throws Exception {
    create(api, name, 2);
    git.openPr(1, "Add the API", "ann", "api.txt", "api\n");
    git.openStackedPr(2, 1, "Use the API", "bob", "use.txt", "use\n");
    git.openStackedPr(3, 2, "Document it", "cid", "doc.txt", "doc\n");
    String stack = "\"pr\":{\"number\":3},\"stack\":true";
    assertThat(api.post("/v1/submitPullRequest", body(name, stack)).status()).isEqualTo(200);

    // the queue submits the PRs below as it reads each one's base
    QueueSteps.awaitPr(api, name, 3, pr -> pr.get("dependsOn").toString().equals("[2]"));
    QueueSteps.awaitPr(api, name, 2, pr -> pr.get("dependsOn").toString().equals("[1]"));
    landInOrder("Add the API", "Use the API", "Document it");
    assertThat(git.repo().tree(git.main())).containsKeys("api.txt", "use.txt", "doc.txt");
    assertThat(
            events().stream().filter(e -> e.get("type").asString().equals("pull_request.canceled")))
        .isEmpty();
  }

  @Test
  void everyWaitingPrHasAPlaceAReasonAndOnceTheQueueHasHistoryAnEstimate() throws Exception {
    create(api, name, 1);
    QueueSteps.landPrs(api, git, name, 1);
    ci.hold(true);
    for (long pr = 2; pr <= 4; pr++) {
      git.openPr(pr, "Add file " + pr, "dev" + pr, "f" + pr + ".txt", pr + "\n");
      if (pr < 4) {
        submit(api, name, pr);
      } else {
        String predicted = "\"pr\":{\"number\":4},\"predictedRisk\":0.25";
        assertThat(api.post("/v1/submitPullRequest", body(name, predicted)).status())
            .isEqualTo(200);
      }
    }
    awaitState(api, name, 2, "testing");
    Awaitility.await()
        .atMost(QueueSteps.PATIENCE)
        .until(() -> pr(api, name, 4).get("queuePosition").asInt(0) == 3);

    Instant previous = Instant.EPOCH;
    for (long pr = 2; pr <= 4; pr++) {
      JsonNode view = pr(api, name, pr);
      assertThat(view.get("queuePosition").asInt()).isEqualTo((int) pr - 1);
      Instant eta = Instant.parse(view.get("estimatedMergeAt").asString());
      assertThat(eta).as("later in line, later to land").isAfterOrEqualTo(previous);
      previous = eta;
    }
    // why each waits (SCHEDULING.md "Why a PR waits"): the queue runs one test run at a time
    JsonNode testing = pr(api, name, 2);
    assertThat(testing.get("waitingFor").isNull()).isTrue();
    assertThat(testing.get("predictedRisk").isNull()).isTrue();
    JsonNode next = pr(api, name, 3);
    assertThat(next.get("waitingFor").asString()).isEqualTo("test_slot");
    assertThat(next.get("waitingReason").asString())
        .isEqualTo(
            "It is next to be tested and starts when a test run ahead of it ends or lands; being"
                + " tested now: #2.");
    JsonNode behind = pr(api, name, 4);
    assertThat(behind.get("waitingFor").asString()).isEqualTo("runs_ahead");
    assertThat(behind.get("waitingReason").asString())
        .isEqualTo("1 pull request ahead of it is tested first (#3); being tested now: #2.");
    assertThat(behind.get("predictedRisk").asDouble()).isEqualTo(0.25);
    JsonNode enqueued = queue().get("enqueuedPullRequests");
    assertThat(enqueued.get(2).get("queuePosition").asInt()).isEqualTo(3);
    assertThat(enqueued.get(2).get("estimatedMergeAt").isNull()).isFalse();
    assertThat(enqueued.get(2).get("waitingFor").asString()).isEqualTo("runs_ahead");
    JsonNode merged = pr(api, name, 1);
    assertThat(merged.get("queuePosition").isNull()).isTrue();
    assertThat(merged.get("estimatedMergeAt").isNull()).isTrue();
    assertThat(merged.get("waitingFor").isNull()).isTrue();
    assertThat(merged.get("waitingReason").isNull()).isTrue();
    ci.hold(false);
    awaitState(api, name, 4, "merged");
  }

  @Test
  void anUpToDateGreenPrMergesDirectlyWithoutATestBranchAndAnOutdatedOneIsTested()
      throws Exception {
    create(api, name, 2);
    String settings = "\"directMergeMode\":\"always\",\"requiredStatuses\":[\"ci/test\"]";
    assertThat(api.post("/v1/updateQueue", body(name, settings)).status()).isEqualTo(200);
    String head = git.openPr(1, "Add a", "ann", "a.txt", "a\n").name();
    String outdated = git.openPr(2, "Add b", "bob", "b.txt", "b\n").name();
    // the PRs' own CI ran on their branches before they were submitted
    QueueSteps.reportStatus(api, name, head, "ci/test", "success");
    QueueSteps.reportStatus(api, name, outdated, "ci/test", "success");

    submit(api, name, 1);
    JsonNode merged = awaitState(api, name, 1, "merged");

    assertThat(ci.testRunsSeen()).as("no test branch for a direct merge").isZero();
    assertThat(git.repo().tree(git.main())).containsKey("a.txt");
    JsonNode event = first(events(), "pull_request.merged", 1);
    assertThat(event.get("merged_reason").asString()).isEqualTo("MERGE_GRAPH_DIRECT_MERGE");
    assertThat(merged.get("verifiedByTestRun").isNull()).isFalse();

    // PR 2 was opened on main before PR 1 landed: its head lacks the target's head now
    submit(api, name, 2);
    awaitState(api, name, 2, "merged");
    assertThat(ci.testRunsSeen()).as("tested the usual way").isEqualTo(1);
    assertThat(first(events(), "pull_request.merged", 2).get("merged_reason").asString())
        .isEqualTo("MERGE_GRAPH_MERGE");
    assertThat(git.repo().tree(git.main())).containsKeys("a.txt", "b.txt");
  }

  @Test
  void aMergeCommitMessageTemplateWritesTheCommitsThatLandBySquashAndByMergeCommit()
      throws Exception {
    create(api, name, 1);
    String squash =
        "\"mergeMethod\":\"squash\",\"mergeCommitMessage\":{\"title\":\"{{ title }}"
            + " (#{{number}})\",\"body\":\"{{body}}\\n\\nLanded-by: trainyard for {{author}} on"
            + " {{targetBranch}} of {{repo}}\\n{{coAuthors}}\"}";
    update(squash);
    assertThat(queue().get("mergeCommitMessage").get("title").asString())
        .isEqualTo("{{ title }} (#{{number}})");
    git.openPr(1, "Add a", "ann", "a.txt", "a\n");
    git.pushTo(1, "Finish a", "a.txt", "a, finished\n"); // by alice, who is the PR's author now

    submit(api, name, 1);
    String run = awaitState(api, name, 1, "merged").get("verifiedByTestRun").asString();

    RevCommit squashed = git.repo().parse(git.main());
    assertThat(squashed.getParentCount()).isEqualTo(1);
    assertThat(squashed.getFullMessage())
        .isEqualTo(
            "Finish a (#1)\n\nbody of Finish a\n\nLanded-by: trainyard for alice on main of acme/"
                + name
                + "\nCo-authored-by: ann <ann@example.com>\nTrainyard-Test-Run: "
                + run
                + "\n");

    // merge commits: the template writes the test branch's merge, which lands as CI tested it
    update(
        "\"mergeMethod\":\"merge_commit\",\"mergeCommitMessage\":{\"title\":\"Land #{{number}}:"
            + " {{title}}\",\"body\":\"Tested-in: {{runId}}\"}");
    git.openPr(2, "Add b", "bob", "b.txt", "b\n");
    submit(api, name, 2);
    String run2 = awaitState(api, name, 2, "merged").get("verifiedByTestRun").asString();
    RevCommit merge = git.repo().parse(git.main());
    assertThat(merge.getParentCount()).isEqualTo(2);
    assertThat(merge.getFullMessage())
        .isEqualTo("Land #2: Add b\n\nTested-in: " + run2 + "\nTrainyard-Test-Run: " + run2 + "\n");

    // null: back to the method's default
    update("\"mergeCommitMessage\":null");
    assertThat(queue().get("mergeCommitMessage").isNull()).isTrue();
    git.openPr(3, "Add c", "cid", "c.txt", "c\n");
    submit(api, name, 3);
    awaitState(api, name, 3, "merged");
    assertThat(git.mainSubjects().get(0)).isEqualTo("Merge pull request #3: Add c");
  }

  static Stream<Arguments> refused() {
    String window =
        "{\"days\":[\"mon\"],\"start\":\"09:00\",\"end\":\"17:00\",\"timeZone\":\"UTC\"}";
    return Stream.of(
        Arguments.of(
            "/v1/updateQueue",
            "\"mergeWindows\":[" + window.replace("\"mon\"", "\"funday\"") + "]",
            400,
            "mergeWindows[0].days: 'funday' is not one of mon, tue, wed, thu, fri, sat, sun"),
        Arguments.of(
            "/v1/updateQueue",
            "\"mergeWindows\":[" + window.replace("UTC", "Mars/Olympus") + "]",
            400,
            "mergeWindows[0].timeZone 'Mars/Olympus' is not an IANA time zone"),
        Arguments.of(
            "/v1/updateQueue",
            "\"mergeWindows\":[" + window.replace("17:00", "09:00") + "]",
            400,
            "mergeWindows[0].end must differ from start"),
        Arguments.of(
            "/v1/updateQueue", "\"mergeWindows\":{}", 400, "mergeWindows must be an array"),
        Arguments.of(
            "/v1/updateQueue",
            "\"mergeCommitMessage\":{\"title\":\"{{title}} by {{reviewer}}\"}",
            400,
            "mergeCommitMessage.title: unknown placeholder {{reviewer}}; known: {{number}},"),
        Arguments.of(
            "/v1/updateQueue",
            "\"mergeCommitMessage\":{\"title\":\"{{title}}\",\"body\":\"{{ Body }}\"}",
            400,
            "mergeCommitMessage.body: unknown placeholder {{ Body }}"),
        Arguments.of(
            "/v1/updateQueue",
            "\"mergeCommitMessage\":{\"title\":\"two\\nlines\"}",
            400,
            "mergeCommitMessage.title must be one line"),
        Arguments.of(
            "/v1/updateQueue",
            "\"mergeCommitMessage\":{\"title\":\"x\",\"footer\":\"y\"}",
            400,
            "mergeCommitMessage has no key footer"),
        Arguments.of(
            "/v1/updateQueue",
            "\"mergeCommitMessage\":\"{{title}}\"",
            400,
            "mergeCommitMessage must be an object {title, body} or null"),
        Arguments.of(
            "/v1/submitPullRequest",
            "\"pr\":{\"number\":7},\"dependsOn\":[7]",
            400,
            "dependsOn must not name pull request 7 itself"),
        Arguments.of(
            "/v1/submitPullRequest",
            "\"pr\":{\"number\":7},\"dependsOn\":" + manyNumbers(51),
            400,
            "dependsOn may name at most 50 pull requests, not 51"),
        Arguments.of(
            "/v1/submitPullRequest",
            "\"pr\":{\"number\":7},\"dependsOn\":[-1]",
            400,
            "dependsOn must be an array of pull request numbers"),
        Arguments.of("/v1/freezeQueue", "", 400, "reason is required"),
        Arguments.of(
            "/v1/freezeQueue",
            "\"reason\":\"x\",\"until\":\"2020-01-01T00:00:00Z\"",
            400,
            "until must be in the future"),
        Arguments.of(
            "/v1/freezeQueue", "\"reason\":\"x\",\"until\":\"soon\"", 400, "until must be an RFC"));
  }

  private static String manyNumbers(int n) {
    StringBuilder out = new StringBuilder("[");
    for (int i = 1; i <= n; i++) {
      out.append(i == 1 ? "" : ",").append(100 + i);
    }
    return out.append("]").toString();
  }

  @ParameterizedTest
  @MethodSource("refused")
  void badInputIsRefusedNamingItsFieldAndNothingIsStored(
      String path, String extra, int status, String message) throws Exception {
    create(api, name, 1);

    Api.Response answer = api.post(path, body(name, extra));

    assertThat(answer.status()).isEqualTo(status);
    assertThat(answer.body()).startsWith(message);
    JsonNode queue = queue();
    assertThat(queue.get("mergeWindows")).isEmpty();
    assertThat(queue.get("mergeCommitMessage").isNull()).isTrue();
    assertThat(queue.get("freeze").isNull()).isTrue();
    assertThat(queue.get("enqueuedPullRequests")).isEmpty();
  }

  @Test
  void aCycleIsRefusedAndFreezingAQueueThatDoesNotExistIsA404() throws Exception {
    create(api, name, 1);
    submitDependent(1, 2);
    submitDependent(2, 3);

    Api.Response cycle =
        api.post("/v1/submitPullRequest", body(name, "\"pr\":{\"number\":3},\"dependsOn\":[1]"));

    assertThat(cycle.status()).isEqualTo(400);
    assertThat(cycle.body().strip())
        .isEqualTo("dependsOn would make a cycle of dependencies: #3 → #1 → #2 → #3");
    assertThat(api.post("/v1/getSubmittedPullRequest", prBody(name, 3)).status()).isEqualTo(404);
    Api.Response missing =
        api.post("/v1/freezeQueue", body(Api.uniqueRepo(), "\"reason\":\"release\""));
    assertThat(missing.status()).isEqualTo(404);
  }
}
