package dev.trainyard.standalone.github;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.Api.prBody;
import static dev.trainyard.standalone.support.QueueSteps.awaitPr;
import static dev.trainyard.standalone.support.QueueSteps.awaitState;
import static dev.trainyard.standalone.support.QueueSteps.create;
import static dev.trainyard.standalone.support.QueueSteps.submit;
import static dev.trainyard.worker.scm.git.BareRepo.files;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.queue.MergeMethod;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.EventLog;
import dev.trainyard.standalone.support.GithubDeliveries;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.Stack.Organization;
import dev.trainyard.standalone.support.TestStack;
import dev.trainyard.worker.scm.github.GithubSimulator;
import dev.trainyard.worker.scm.github.OpenApiContract;
import dev.trainyard.worker.scm.github.SimulatedRepository;
import dev.trainyard.worker.scm.github.SimulatedRepository.CheckRun;
import dev.trainyard.worker.scm.github.Webhooks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The GitHub App adapter end to end, on the GitHub simulator: real repositories behind GitHub's
 * REST description, webhook deliveries built from GitHub's published examples. An installation
 * bound to the organization; PRs submitted by the API, by a {@code /trainyard merge} comment from a
 * user with write access and by label; test branches in the repository, CI results as check runs,
 * landing by each merge method; PRs pushed to or closed leave the queue; the {@code trainyard}
 * check run follows every PR; a redelivered delivery is applied once; another organization naming
 * the repository, or a removed installation, gets nothing but the reason.
 */
class GithubAppIT extends OwnStack {
  private static final long INSTALLATION = 5150;
  private static final String SECRET = "github-app-secret-" + UUID.randomUUID();
  private static final String CI = "ci";
  private GithubSimulator github;
  private Api api;
  private String name;
  private SimulatedRepository repo;
  private CiBot ci;

  @Override
  protected Map<String, Object> properties() {
    try {
      github = new GithubSimulator(OpenApiContract.github(), InstantSource.system());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Map.of(
        "trainyard.github.app-id",
        Long.toString(GithubSimulator.APP_ID),
        "trainyard.github.private-key",
        github.privateKeyPem(),
        "trainyard.github.api-url",
        github.api().toString(),
        "trainyard.github.webhook-secret",
        SECRET,
        "trainyard.github.reconcile-interval",
        "1s",
        // CheckWriteDebounceTest holds the minute; here the positions are read as they change
        "trainyard.github.check-debounce",
        "1s",
        // WriteBudgetTest holds GitHub's write limits; here every test shares one installation
        "trainyard.github.writes-per-minute",
        "100000",
        "trainyard.github.writes-per-hour",
        "100000",
        "trainyard.github.redelivery-interval",
        "1s");
  }

  @Override
  @BeforeAll
  protected void startStack() {
    super.startStack();
    Map<String, ObjectNode> templates = new ConcurrentHashMap<>();
    github
        .webhooks()
        .deliverTo(
            URI.create(stack.api().base() + GithubDeliveries.PATH),
            SECRET,
            (event, action) ->
                templates.computeIfAbsent(event + "." + action, k -> example(event, action)));
    assertThat(
            stack
                .admin()
                .post(
                    "/admin/v1/bindGithubInstallation",
                    "{\"org\":\"" + TestStack.ORG + "\",\"installationId\":" + INSTALLATION + "}")
                .status())
        .isEqualTo(200);
  }

  @AfterAll
  void stopGithub() {
    if (github != null) {
      github.close();
    }
  }

  @BeforeEach
  void repository() {
    api = stack.api();
    name = Api.uniqueRepo();
    repo = github.install(INSTALLATION, "acme", name);
    repo.push("main", files("README", "hello"), "Initial commit");
    ci = new CiBot(repo);
  }

  @AfterEach
  void noBreaches() {
    ci.close();
    assertThat(github.takeProblems()).as("breaches of GitHub's REST description").isEmpty();
  }

  @ParameterizedTest
  @EnumSource(MergeMethod.class)
  void pullRequestsSubmittedByApiCommentAndLabelLandByTheQueuesMergeMethod(MergeMethod method)
      throws IOException {
    create(api, name, 3);
    update(
        "\"mergeMethod\":\""
            + method.name().toLowerCase(Locale.ROOT)
            + "\",\"labelCommandsEnabled\":true,\"enqueueingLabel\":\"ready-to-merge\"");
    long byApi = pr("a", "a.txt");
    long byComment = pr("b", "b.txt");
    long byLabel = pr("c", "c.txt");
    long byReader = pr("d", "d.txt");
    long byTriage = pr("e", "e.txt");
    repo.grant("maya", "write");
    repo.grant("rob", "read");
    repo.grant("tia", "triage"); // may label on GitHub, may not merge

    submit(api, name, byApi);
    repo.comment(byComment, "maya", "/trainyard merge --priority=high");
    repo.label(byLabel, "ready-to-merge", "maya");
    repo.comment(byReader, "rob", "/trainyard merge");
    repo.label(byTriage, "ready-to-merge", "tia");

    for (long pr : List.of(byApi, byComment, byLabel)) {
      awaitState(api, name, pr, "merged");
      assertThat(repo.pull(pr).orElseThrow().merged()).as("merged on GitHub").isTrue();
      awaitCheck(pr, "completed", "success");
    }
    String main = repo.head("main").orElseThrow();
    assertThat(tree(main))
        .containsKeys("a.txt", "b.txt", "c.txt")
        .doesNotContainKeys("d.txt", "e.txt");
    assertThat(ci.tested()).as("CI ran on trainyard's test branches").isNotEmpty();
    assertThat(repo.git().refs("refs/heads/trainyard-merge/"))
        .as("test branches are deleted once their runs end")
        .isEmpty();
    assertThat(api.post("/v1/getSubmittedPullRequest", prBody(name, byReader)).status())
        .as("a comment from a user without write access submits nothing")
        .isEqualTo(404);
    awaitReply(byReader, "@rob trainyard did not act on this command: only people with write");
    assertThat(api.post("/v1/getSubmittedPullRequest", prBody(name, byTriage)).status())
        .as("a label from a user with the triage role submits nothing (before, any labeller did)")
        .isEqualTo(404);
    assertThat(QueueSteps.pr(api, name, byComment).get("priorityName").asString())
        .isEqualTo("high");
  }

  /**
   * The target requires {@code ci/slow} (classic protection) and {@code lint} (a ruleset whose rule
   * GitHub lists on its second page of rules, after 30 rules of other rulesets): a run whose {@code
   * ci/slow} succeeded waits for {@code lint}, and one whose {@code ci/slow} failed does not land.
   * Before required checks were read from GitHub, the first run landed as soon as one check
   * reported; before every page of rules was read, as soon as {@code ci/slow} did.
   */
  @Test
  void theTargetBranchsRequiredChecksDecideWhetherARunLands() {
    ci.hold(true);
    repo.protect("main", "ci/slow");
    repo.otherRulesets("main", 30);
    repo.ruleset("main", "lint");
    create(api, name, 1);
    long slow = pr("a", "a.txt");
    submit(api, name, slow);
    awaitState(api, name, slow, "testing");
    String head = QueueSteps.testBranchHead(repo.git());

    repo.completeCheck(head, "ci/slow", "success");
    // several poll and reconcile rounds pass: it must still wait for lint
    Awaitility.await()
        .during(Duration.ofSeconds(3))
        .atMost(Duration.ofSeconds(5))
        .until(() -> QueueSteps.pr(api, name, slow).get("state").asString().equals("testing"));
    assertThat(repo.pull(slow).orElseThrow().merged()).isFalse();

    repo.completeCheck(head, "lint", "success");
    awaitState(api, name, slow, "merged");

    long broken = pr("b", "b.txt");
    submit(api, name, broken);
    awaitState(api, name, broken, "testing");
    String second = QueueSteps.testBranchHead(repo.git());
    repo.completeCheck(second, "lint", "success");
    repo.completeCheck(second, "ci/slow", "failure");
    awaitState(api, name, broken, "failed");
    assertThat(tree(repo.head("main").orElseThrow())).containsOnlyKeys("README", "a.txt");
  }

  /**
   * GitHub loses the delivery of the only required check's result: the worker reads the check runs
   * of the run's head itself, and the run lands within a reconcile interval (1 s here).
   */
  @Test
  void aLostCheckRunDeliveryIsReadBackWithinAReconcileInterval() {
    ci.hold(true);
    repo.protect("main", CI);
    create(api, name, 1);
    long pr = pr("a", "a.txt");
    submit(api, name, pr);
    awaitState(api, name, pr, "testing");
    String head = QueueSteps.testBranchHead(repo.git());
    int before = github.calls().size();

    github.webhooks().dropNext("check_run");
    github.webhooks().loseRedeliveries(true); // what lands it is the reconciler's read
    try {
      repo.completeCheck(head, CI, "success");
      assertThat(github.webhooks().deliveries())
          .as("the delivery was lost")
          .anyMatch(d -> d.event().equals("check_run") && d.status() == 0);

      awaitState(api, name, pr, "merged");
    } finally {
      github.webhooks().loseRedeliveries(false);
    }
    List<String> reads =
        github.calls().stream()
            .skip(before)
            .filter(c -> c.contains("/commits/" + head + "/"))
            .toList();
    System.out.println(
        "reconciled run: " + reads.size() + " REST requests for its head's checks: " + reads);
    assertThat(reads).as("read back, not delivered").isNotEmpty();
  }

  /**
   * GitHub delivers out of order: required check {@code ci} starts (its delivery held back),
   * completes, and the start is delivered late; the run still lands. This cannot tell the engine's
   * rule (a late start of a concluded check run is ignored, held by the engine's table tests) from
   * the reconciler reading the check back within its 1 s interval here: it holds the end-to-end
   * outcome of a reordered delivery, not that rule.
   */
  @Test
  void aRunWhoseCheckStartIsDeliveredAfterItsConclusionStillLands() {
    ci.hold(true);
    repo.protect("main", CI, "lint");
    create(api, name, 1);
    long pr = pr("a", "a.txt");
    submit(api, name, pr);
    awaitState(api, name, pr, "testing");
    String head = QueueSteps.testBranchHead(repo.git());

    github.webhooks().holdNext("check_run", "created");
    long run = repo.startCheck(head, CI);
    repo.completeCheck(run, "success");
    github.webhooks().releaseHeld();
    repo.completeCheck(head, "lint", "success");

    awaitState(api, name, pr, "merged");
  }

  /**
   * {@code stateLabelsEnabled}: one {@code trainyard:*} label follows each PR, queued → testing →
   * merged, queued → testing → failed, and none once a PR is cancelled.
   */
  @Test
  void stateLabelsFollowEachPullRequestThroughTheQueue() {
    ci.hold(true);
    create(api, name, 1);
    update("\"stateLabelsEnabled\":true");
    long first = pr("a", "a.txt");
    long second = pr("b", "b.txt");
    long cancelled = pr("c", "c.txt");
    submit(api, name, first);
    submit(api, name, second);
    submit(api, name, cancelled);
    awaitState(api, name, first, "testing");

    awaitLabel(first, "trainyard:testing");
    awaitLabel(second, "trainyard:queued");
    awaitLabel(cancelled, "trainyard:queued");
    assertThat(api.post("/v1/cancelPullRequest", prBody(name, cancelled)).status()).isEqualTo(200);
    awaitLabel(cancelled, null);

    repo.completeCheck(QueueSteps.testBranchHead(repo.git()), CI, "success");
    awaitState(api, name, first, "merged");
    awaitLabel(first, "trainyard:merged");
    awaitState(api, name, second, "testing");
    awaitLabel(second, "trainyard:testing");

    repo.completeCheck(QueueSteps.testBranchHead(repo.git()), CI, "failure");
    awaitState(api, name, second, "failed");
    awaitLabel(second, "trainyard:failed");
    assertThat(trainyardLabels(second))
        .as("the labels PR #%d carried, in order", second)
        .containsSubsequence(
            List.of("trainyard:queued"), List.of("trainyard:testing"), List.of("trainyard:failed"));
    assertThat(repo.labelHistory(second))
        .as("never two trainyard labels at once")
        .allSatisfy(
            labels ->
                assertThat(labels.stream().filter(l -> l.startsWith("trainyard:")))
                    .hasSizeLessThan(2));
  }

  /**
   * {@code createPrsForTestingBranches}: each run's branch gets one draft PR into the target while
   * it tests, whose number the events carry as {@code test_pr_number}; it is no longer open once
   * the run ended.
   */
  @Test
  void eachTestRunGetsADraftPullRequestWhileItTests() {
    ci.hold(true);
    create(api, name, 1);
    update("\"createPrsForTestingBranches\":true");
    long pr = pr("a", "a.txt");
    submit(api, name, pr);
    awaitState(api, name, pr, "testing");
    String head = QueueSteps.testBranchHead(repo.git());

    SimulatedRepository.PullRequest draft =
        Awaitility.await()
            .atMost(QueueSteps.PATIENCE)
            .until(
                () -> repo.pulls().stream().filter(SimulatedRepository.PullRequest::draft).toList(),
                drafts -> drafts.size() == 1)
            .get(0);
    assertThat(draft.open()).isTrue();
    assertThat(draft.title()).isEqualTo("trainyard: testing #" + pr);
    assertThat(draft.headBranch()).startsWith("trainyard-merge/main/");

    repo.completeCheck(head, CI, "success");
    awaitState(api, name, pr, "merged");
    Awaitility.await().atMost(QueueSteps.PATIENCE).until(() -> !draft.open());
    assertThat(repo.pulls().stream().filter(SimulatedRepository.PullRequest::draft))
        .as("one draft PR for the one run")
        .hasSize(1);
    Awaitility.await()
        .atMost(QueueSteps.PATIENCE)
        .untilAsserted(
            () ->
                assertThat(
                        events().stream()
                            .filter(e -> e.type().equals("pull_request.merged"))
                            .filter(e -> e.body().path("pr_number").asLong(0) == pr)
                            .map(e -> e.body().get("test_pr_number").asLong()))
                    .containsExactly(draft.number()));
  }

  /**
   * GitHub's names are case-insensitive: a queue created as {@code acme/web-…} gets the comment
   * commands and results of {@code Acme/Web-…}. Before, deliveries were routed by the exact name
   * and the comment below was ignored.
   */
  @Test
  void aQueueNamedInAnotherCaseThanGithubsIsReachedByItsDeliveries() {
    SimulatedRepository mixed = github.install(INSTALLATION, "Acme", "Web-" + name);
    mixed.push("main", files("README", "hello"), "Initial commit");
    String lower = ("web-" + name).toLowerCase(Locale.ROOT);
    create(api, lower, 1);
    mixed.push("a", files("a.txt", "a"), "Add a.txt");
    long pr = mixed.openPullRequest("a", "main", "Add a.txt", "alice");
    mixed.grant("maya", "write");

    mixed.comment(pr, "maya", "/trainyard merge");

    awaitState(api, lower, pr, "testing");
    mixed.completeCheck(QueueSteps.testBranchHead(mixed.git()), CI, "success");
    awaitState(api, lower, pr, "merged");
    assertThat(mixed.pull(pr).orElseThrow().merged()).isTrue();
  }

  /**
   * A merge method GitHub will refuse on the branch is refused when it is set, naming {@code
   * mergeMethod} and why, and a queue may be created with one it accepts. Before, both were taken
   * and every landing was refused after the PRs had been tested.
   */
  @Test
  void aMergeMethodGithubWillRefuseIsRefusedWhenItIsSet() {
    repo.disableMergeMethod("squash");
    repo.rule("main", "required_linear_history", Map.of());

    Api.Response byDefault = api.post("/v1/createQueue", body(name, "\"concurrency\":1"));
    assertThat(byDefault.status()).as(byDefault.body()).isEqualTo(400);
    assertThat(byDefault.body()).contains("mergeMethod merge_commit", "linear history");
    Api.Response rebase =
        api.post("/v1/createQueue", body(name, "\"concurrency\":1,\"mergeMethod\":\"rebase\""));
    assertThat(rebase.status()).as(rebase.body()).isEqualTo(200);
    Api.Response squash = api.post("/v1/updateQueue", body(name, "\"mergeMethod\":\"squash\""));
    assertThat(squash.status()).as(squash.body()).isEqualTo(400);
    assertThat(squash.body()).contains("mergeMethod squash", "allow_squash_merge");
    assertThat(api.post("/v1/getQueue", body(name, "")).json().get("mergeMethod").asString())
        .isEqualTo("rebase");
    Api.Response stranger =
        stack
            .otherOrganization()
            .api()
            .post("/v1/createQueue", body(name, "\"concurrency\":1,\"mergeMethod\":\"squash\""));
    assertThat(stranger.status())
        .as(
            "another organization, whose installation this is not, learns nothing of the repository")
        .isEqualTo(200);

    long pr = pr("a", "a.txt");
    submit(api, name, pr);
    awaitState(api, name, pr, "merged");
    assertThat(repo.pull(pr).orElseThrow().merged()).isTrue();
  }

  /**
   * A stack of three (b based on a's branch, c on b's) submitted from its top with {@code stack}:
   * the queue submits b and a as it reads each one's base, tests each on top of the one below, and
   * lands them in order, retargeting b and c onto main as each lands, so GitHub merges each into
   * main and shows it merged.
   */
  @ParameterizedTest
  @EnumSource(
      value = MergeMethod.class,
      names = {"MERGE_COMMIT", "SQUASH"})
  void aStackOfThreeSubmittedFromItsTopLandsInOrderEachRetargetedOntoMainAsItLands(
      MergeMethod method) {
    // one run at a time: each PR above starts only once the one below has merged on GitHub
    create(api, name, 1);
    update("\"mergeMethod\":\"" + method.name().toLowerCase(Locale.ROOT) + "\"");
    long a = pr("a", "a.txt");
    repo.branch("b", "a");
    repo.push("b", files("b.txt", "b"), "Add b.txt", "bob");
    long b = repo.openPullRequest("b", "a", "Add b.txt", "bob");
    repo.branch("c", "b");
    repo.push("c", files("c.txt", "c"), "Add c.txt", "cid");
    long c = repo.openPullRequest("c", "b", "Add c.txt", "cid");

    String top = "\"pr\":{\"number\":" + c + "},\"stack\":true";
    assertThat(api.post("/v1/submitPullRequest", body(name, top)).status()).isEqualTo(200);

    for (long pr : List.of(a, b, c)) {
      awaitState(api, name, pr, "merged");
      SimulatedRepository.PullRequest pull = repo.pull(pr).orElseThrow();
      assertThat(pull.merged()).as("#" + pr + " merged on GitHub").isTrue();
      assertThat(pull.base()).as("#" + pr + " merged into main").isEqualTo("main");
    }
    assertThat(tree(repo.head("main").orElseThrow())).containsKeys("a.txt", "b.txt", "c.txt");
    assertThat(repo.head("a")).as("the branches below are left as they were").isPresent();
    assertThat(events())
        .noneMatch(e -> e.type().startsWith("pull_request") && e.type().endsWith(".canceled"));
  }

  /**
   * A squash batch of three lands whole while GitHub answers the merge call after each of its
   * merges with 405 "Base branch was modified" once; a batch GitHub stops midway (it keeps
   * answering so) keeps what it merged, and the rest are tested again alone, their check run saying
   * why. Before, the first 405 cancelled the batch as if someone had pushed to main, and the PR
   * GitHub had merged was then cancelled as closed.
   */
  @Test
  void aSquashBatchLandsThroughGithubsRaceAndWhatMergedStaysMergedWhenItStops() {
    create(api, name, 1);
    update(
        "\"mergeMethod\":\"squash\",\"batch\":true,\"batchingMinSize\":3,"
            + "\"batchingMaxWaitTimeMinutes\":5");
    repo.raceAfterEachMerge(1);
    List<Long> first = List.of(pr("a", "a.txt"), pr("b", "b.txt"), pr("c", "c.txt"));
    first.forEach(pr -> submit(api, name, pr));
    for (long pr : first) {
      awaitState(api, name, pr, "merged");
      assertThat(repo.pull(pr).orElseThrow().merged()).as("#" + pr + " merged on GitHub").isTrue();
    }
    assertThat(mergeCalls())
        .as("three merges, and one more for each race after the first")
        .isEqualTo(5);
    assertThat(events())
        .as("nothing of the batch was cancelled")
        .noneMatch(e -> e.type().startsWith("pull_request") && e.type().endsWith(".canceled"));

    ci.hold(true);
    repo.raceAfterEachMerge(100); // GitHub keeps answering 405 after the batch's first merge
    List<Long> second = List.of(pr("d", "d.txt"), pr("e", "e.txt"), pr("f", "f.txt"));
    second.forEach(pr -> submit(api, name, pr));
    awaitState(api, name, second.get(0), "testing");
    repo.completeCheck(QueueSteps.testBranchHead(repo.git()), CI, "success");
    awaitState(api, name, second.get(0), "merged");
    repo.stopRaces();
    CheckRun told =
        Awaitility.await()
            .atMost(QueueSteps.PATIENCE)
            .until(
                () ->
                    repo.checkRuns().stream()
                        .filter(r -> r.name().equals("trainyard"))
                        .filter(r -> r.summary() != null && r.summary().contains("tested alone"))
                        .findFirst()
                        .orElse(null),
                r -> r != null);
    assertThat(told.summary())
        .contains(
            "GitHub merged [#" + second.get(0) + "] of the batch, then refused #" + second.get(1),
            "Base branch was modified");
    ci.hold(false);
    for (long pr : second) {
      awaitState(api, name, pr, "merged");
      assertThat(repo.pull(pr).orElseThrow().merged()).isTrue();
    }
    assertThat(
            events().stream()
                .filter(e -> e.type().equals("pull_request.queued"))
                .filter(
                    e -> e.body().path("queued_reason").asString("").equals("BATCH_PARTLY_MERGED"))
                .map(e -> e.body().path("pr_number").asLong()))
        .containsExactlyInAnyOrder(second.get(1), second.get(2));
    assertThat(events())
        .as("no PR failed or was cancelled")
        .noneMatch(
            e ->
                e.type().equals("pull_request.failed") || e.type().equals("pull_request.canceled"));
  }

  private long mergeCalls() {
    return github.calls().stream()
        .filter(call -> call.startsWith("PUT /repos/acme/" + name + "/pulls/"))
        .count();
  }

  /**
   * The branch requires check {@code Vercel} from the Vercel App, which reports commit statuses
   * through its Bot account: a success status from {@code vercel[bot]} lands the run, one of the
   * same context from a person does not. Before, statuses carried no App and never matched a check
   * bound to one: such runs waited until they timed out.
   */
  @Test
  void aStatusFromTheBotOfTheAppACheckIsBoundToCounts() {
    ci.hold(true);
    github.registerApp("vercel", 8329);
    repo.rulesetBoundTo("main", "Vercel", 8329);
    create(api, name, 1);
    long pr = pr("a", "a.txt");
    submit(api, name, pr);
    awaitState(api, name, pr, "testing");
    String head = QueueSteps.testBranchHead(repo.git());

    repo.setStatus(head, "Vercel", "success"); // a person's status of that name
    Awaitility.await()
        .during(Duration.ofSeconds(3))
        .atMost(Duration.ofSeconds(5))
        .until(() -> QueueSteps.pr(api, name, pr).get("state").asString().equals("testing"));
    repo.setStatus(head, "Vercel", "success", "vercel");
    awaitState(api, name, pr, "merged");
    ci.hold(false);
  }

  /**
   * GitHub fails to deliver a maintainer's {@code /trainyard merge} (the gateway did not answer),
   * and GitHub never retries a delivery: trainyard asks GitHub to send it again, and the PR is
   * queued and lands. Before, the command was lost.
   */
  @Test
  void aCommentCommandGithubFailedToDeliverIsAskedForAgainAndActedOn() {
    create(api, name, 1);
    repo.grant("maya", "write");
    long pr = pr("a", "a.txt");
    github.webhooks().dropNext("issue_comment");
    repo.comment(pr, "maya", "/trainyard merge");

    awaitState(api, name, pr, "merged");
    assertThat(github.calls())
        .anyMatch(c -> c.startsWith("POST /app/hook/deliveries/") && c.endsWith("/attempts"));
  }

  /**
   * GitHub is slow to say who may command the queue, and the PR's author pushes right after a
   * maintainer's {@code /trainyard merge}: the push is not queued (it is not what the maintainer
   * asked for), and the maintainer is told why. Before, the head read when the command was applied
   * was queued, whatever was pushed between the comment and then.
   */
  @Test
  void aPushAfterACommentCommandIsNotQueuedByIt() {
    create(api, name, 1);
    repo.grant("maya", "write");
    long pr = pr("a", "a.txt");
    github.slow("/collaborators", Duration.ofSeconds(3));
    try {
      repo.comment(pr, "maya", "/trainyard merge");
      Awaitility.await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> github.calls().stream().anyMatch(c -> c.contains("/collaborators/maya")));
      repo.push("a", files("late.txt", "pushed after the command"), "pushed late");
      awaitReply(pr, "@maya trainyard did not act on this command: the pull request was pushed");
    } finally {
      github.slow("/collaborators", Duration.ZERO);
    }
    assertThat(api.post("/v1/getSubmittedPullRequest", prBody(name, pr)).status())
        .as("nothing was queued")
        .isEqualTo(404);

    repo.comment(pr, "maya", "/trainyard merge");
    awaitState(api, name, pr, "merged");
    assertThat(tree(repo.head("main").orElseThrow())).containsKey("late.txt");
  }

  /**
   * A reviewer requests changes while the queue is frozen for a release, after CI passed: the
   * landing, asked for once the freeze ends, stops, and the PR waits not ready with GitHub's
   * reason. A landing by ref update (a bypass) would skip the review. And a PR GitHub blocks only
   * because its head lacks the required check (CI runs on trainyard's branches alone) is queued and
   * lands; before, it stayed not ready.
   */
  @Test
  void aReviewRequestingChangesStopsTheLandingAndMissingChecksAloneHoldNothing() {
    ci.hold(true);
    repo.protect("main", CI);
    create(api, name, 1);
    long reviewed = pr("a", "a.txt");
    submit(api, name, reviewed);
    awaitState(api, name, reviewed, "testing");
    assertThat(api.post("/v1/freezeQueue", body(name, "\"reason\":\"release\"")).status())
        .isEqualTo(200);
    repo.completeCheck(QueueSteps.testBranchHead(repo.git()), CI, "success");
    awaitState(api, name, reviewed, "tests_passed");
    repo.requestChanges(reviewed);
    assertThat(api.post("/v1/unfreezeQueue", body(name, "")).status()).isEqualTo(200);

    JsonNode held =
        QueueSteps.awaitPr(
            api, name, reviewed, pr -> pr.get("state").asString().equals("not_ready"));
    assertThat(reason(held)).hasValueSatisfying(r -> assertThat(r).contains("requested changes"));
    assertThat(repo.pull(reviewed).orElseThrow().merged()).isFalse();
    assertThat(repo.head("main").map(this::tree).orElseThrow()).doesNotContainKey("a.txt");

    ci.hold(false);
    long checksOnly = pr("b", "b.txt");
    repo.blockOnChecks(checksOnly);
    submit(api, name, checksOnly);
    awaitState(api, name, checksOnly, "merged");
    assertThat(repo.pull(checksOnly).orElseThrow().merged()).isTrue();
  }

  /**
   * Strict required checks ("require branches to be up to date") refuse squash and rebase when they
   * are set, whether a ruleset says so or classic protection does (read where the App has
   * administration access); merge_commit lands a PR tested behind the target by moving the target
   * to the tested commit. Before, squash was taken and every PR after the first of a batch, and
   * every PR behind, was refused at landing after CI had run.
   */
  @Test
  void strictRequiredChecksRefuseSquashAndRebaseAndMergeCommitLandsABehindPullRequest() {
    repo.ruleset("main", CI);
    repo.requireUpToDate("main");
    Api.Response squash =
        api.post("/v1/createQueue", body(name, "\"concurrency\":1,\"mergeMethod\":\"squash\""));
    assertThat(squash.status()).as(squash.body()).isEqualTo(400);
    assertThat(squash.body())
        .contains("mergeMethod squash", "strict_required_status_checks_policy", "up to date");
    create(api, name, 1);
    Api.Response rebase = api.post("/v1/updateQueue", body(name, "\"mergeMethod\":\"rebase\""));
    assertThat(rebase.status()).as(rebase.body()).isEqualTo(400);

    long behind = pr("a", "a.txt");
    repo.push("main", files("later.txt", "moved on"), "main moves on");
    assertThat(repo.contains(repo.head("a").orElseThrow(), repo.head("main").orElseThrow()))
        .as("the PR's head is behind main")
        .isFalse();
    submit(api, name, behind);
    awaitState(api, name, behind, "merged");
    assertThat(tree(repo.head("main").orElseThrow())).containsKeys("a.txt", "later.txt");

    String classic = Api.uniqueRepo();
    SimulatedRepository protectedRepo = github.install(INSTALLATION, "acme", classic);
    protectedRepo.push("main", files("README", "hello"), "Initial commit");
    protectedRepo.protect("main", CI);
    protectedRepo.requireUpToDate("main");
    protectedRepo.grantAdministrationRead();
    Api.Response classicSquash =
        api.post("/v1/createQueue", body(classic, "\"concurrency\":1,\"mergeMethod\":\"squash\""));
    assertThat(classicSquash.status()).as(classicSquash.body()).isEqualTo(400);
    assertThat(classicSquash.body()).contains("branch protection requires branches to be up to");
  }

  /** GitHub's names are case-insensitive: a second queue on the same branch is a conflict. */
  @Test
  void aQueueOnTheSameRepositoryNamedInAnotherCaseIsAConflict() {
    create(api, name, 1);

    Api.Response again =
        api.post("/v1/createQueue", body(name.toUpperCase(Locale.ROOT), "\"concurrency\":1"));

    assertThat(again.status()).as(again.body()).isEqualTo(409);
    assertThat(again.body()).contains("acme/" + name);
  }

  /**
   * A repository renamed, then transferred to another owner, keeps its queue: deliveries under the
   * new names reach it (by GitHub's id of the repository), and its calls on the name it was created
   * with follow GitHub's redirects. Before, every delivery under the new name was dropped.
   */
  @Test
  void aRenamedOrTransferredRepositoryKeepsItsQueue() {
    create(api, name, 1);
    repo.grant("maya", "write");
    long renamed = pr("a", "a.txt");

    repo.rename("acme/" + name + "-renamed");
    repo.comment(renamed, "maya", "/trainyard merge");

    awaitState(api, name, renamed, "merged");
    long transferred = pr("b", "b.txt");
    repo.rename("acme-labs/" + name + "-renamed");
    repo.comment(transferred, "maya", "/trainyard merge");

    awaitState(api, name, transferred, "merged");
    assertThat(tree(repo.head("main").orElseThrow())).containsKeys("a.txt", "b.txt");
  }

  /**
   * GitHub gives a delivery 10 s and never retries it. A comment command is answered at once, and
   * applied afterwards, even when GitHub takes 12 s to say who may give it. Before, the delivery
   * was answered only once applied: past 10 s GitHub cut it off and the command was lost.
   */
  @Test
  void aDeliveryIsAnsweredAtOnceWhileApplyingItWaitsOnGithub() {
    create(api, name, 1);
    long pr = pr("a", "a.txt");
    repo.grant("maya", "write");
    github.slow("/collaborators", Duration.ofSeconds(12));
    try {
      long start = System.nanoTime();
      repo.comment(pr, "maya", "/trainyard merge");
      Duration answered = Duration.ofNanos(System.nanoTime() - start);

      Webhooks.Delivery comment =
          github.webhooks().deliveries().stream()
              .filter(d -> d.event().equals("issue_comment"))
              .filter(d -> new String(d.body()).contains("\"" + name + "\""))
              .reduce((a, b) -> b)
              .orElseThrow();
      assertThat(comment.status()).isEqualTo(200);
      assertThat(answered)
          .as("answered well inside GitHub's 10 s")
          .isLessThan(Duration.ofSeconds(5));
    } finally {
      github.slow("/collaborators", Duration.ZERO);
    }
    awaitState(api, name, pr, "merged");
  }

  /** A Bot's {@code /trainyard merge} does nothing until the queue lists it. */
  @Test
  void aBotsCommentIsIgnoredUntilTheQueueListsIt() {
    create(api, name, 1);
    long pr = pr("a", "a.txt");

    repo.comment(pr, "dependabot[bot]", "/trainyard merge");
    Awaitility.await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(4))
        .until(() -> api.post("/v1/getSubmittedPullRequest", prBody(name, pr)).status() == 404);
    awaitReply(
        pr, "@dependabot[bot] trainyard did not act on this command: `dependabot[bot]` is not");
    repo.comment(pr, "dependabot[bot]", "/trainyard merge --force");
    awaitReply(
        pr, "@dependabot[bot] trainyard did not act on this command: `--force` is no option");

    update("\"allowedBotSubmitters\":[\"dependabot[bot]\"]");
    repo.comment(pr, "dependabot[bot]", "/trainyard merge");
    awaitState(api, name, pr, "merged");
  }

  @Test
  void theTrainyardCheckRunShowsStateAndPositionThroughout() {
    ci.hold(true);
    create(api, name, 1);
    long first = pr("a", "a.txt");
    long second = pr("b", "b.txt");
    submit(api, name, first);
    submit(api, name, second);
    awaitState(api, name, first, "testing");

    // a position is rewritten at most once per debounce (1 s here): it may show 1 of 1 at first
    Awaitility.await()
        .atMost(QueueSteps.PATIENCE)
        .untilAsserted(
            () ->
                assertThat(awaitCheck(first, "in_progress", null).title())
                    .isEqualTo("Testing (1 of 2)"));
    CheckRun waiting = awaitCheck(second, "in_progress", null);
    assertThat(waiting.title()).contains("(2 of 2)");
    assertThat(waiting.summary())
        .as("the runs ahead, and a link to its page")
        .contains("Ahead of it:")
        .containsPattern("- test run [0-9a-f-]+ \\(#" + first + "\\): (building|testing)")
        .contains("/merge-queue/github.com/acme/" + name + "/main/" + second);
    assertThat(waiting.detailsUrl()).endsWith("/acme/" + name + "/main/" + second);

    ci.hold(false);
    awaitState(api, name, second, "merged");
    awaitCheck(first, "completed", "success");
    awaitCheck(second, "completed", "success");
    assertThat(
            repo.checkRuns().stream()
                .filter(r -> r.name().equals("trainyard"))
                .map(CheckRun::headSha)
                .distinct()
                .count())
        .as("one trainyard check run per PR head, updated in place")
        .isEqualTo(repo.checkRuns().stream().filter(r -> r.name().equals("trainyard")).count());
  }

  @Test
  void aPullRequestPushedToWhileTestingIsCancelledAndOneClosedLeavesTheQueue() {
    ci.hold(true);
    create(api, name, 2);
    long pushed = pr("a", "a.txt");
    long closed = pr("b", "b.txt");
    submit(api, name, pushed);
    submit(api, name, closed);
    awaitState(api, name, pushed, "testing");

    repo.push("a", files("a2.txt", "more"), "More a");
    repo.close(closed);

    awaitState(api, name, pushed, "cancelled");
    awaitState(api, name, closed, "cancelled");
    assertThat(cancellation(pushed)).isEqualTo("PR_PUSHED_TO");
    assertThat(cancellation(closed)).isEqualTo("PR_CLOSED");
    ci.hold(false);
    assertThat(tree(repo.head("main").orElseThrow())).containsOnlyKeys("README");
    awaitCheck(closed, "completed", "cancelled");
  }

  /**
   * A PR closed before the worker ever read it leaves the queue as closed. Before, it stayed {@code
   * not_ready} ("the source host has not reported pull request #n yet") for good: only a PR already
   * seen was taken for closed when GitHub no longer showed it open.
   */
  @Test
  void aPullRequestClosedBeforeItWasEverReadLeavesTheQueue() {
    create(api, name, 1);
    long closed = pr("a", "a.txt");
    repo.close(closed);

    submit(api, name, closed);

    awaitState(api, name, closed, "cancelled");
    assertThat(cancellation(closed)).isEqualTo("PR_CLOSED");
  }

  @Test
  void aFailedPullRequestIsCommentedOnOnce() {
    create(api, name, 1);
    long broken = pr("a", CiBot.BROKEN);
    submit(api, name, broken);

    awaitState(api, name, broken, "failed");
    awaitCheck(broken, "completed", "failure");
    Awaitility.await()
        .atMost(QueueSteps.PATIENCE)
        .until(() -> repo.comments().stream().anyMatch(c -> c.issue() == broken));
    assertThat(repo.comments())
        .filteredOn(c -> c.issue() == broken)
        .singleElement()
        .satisfies(c -> assertThat(c.body()).contains("could not merge this pull request"));
    assertThat(repo.head("main").map(this::tree).orElseThrow()).containsOnlyKeys("README");
  }

  @Test
  void aDeliveryRedeliveredTwiceIsAppliedOnce() {
    create(api, name, 1);
    update("\"labelCommandsEnabled\":true,\"enqueueingLabel\":\"ready-to-merge\"");
    long pr = pr("a", "a.txt");
    repo.grant("maya", "write");
    repo.label(pr, "ready-to-merge", "maya");
    awaitState(api, name, pr, "merged");
    Webhooks.Delivery labeled =
        github.webhooks().deliveries().stream()
            .filter(d -> d.event().equals("pull_request") && d.action().equals("labeled"))
            .filter(d -> new String(d.body()).contains("\"" + name + "\""))
            .findFirst()
            .orElseThrow();

    assertThat(github.webhooks().redeliver(labeled.id())).isEqualTo(200);
    assertThat(github.webhooks().redeliver(labeled.id())).isEqualTo(200);

    assertThat(QueueSteps.pr(api, name, pr).get("state").asString()).isEqualTo("merged");
    assertThat(
            events().stream()
                .filter(e -> e.body().path("pr_number").asLong(0) == pr)
                .map(EventLog.Event::type)
                .filter(t -> t.equals("pull_request.submitted")))
        .as("submitted once")
        .hasSize(1);
  }

  @Test
  void anotherOrganizationOrARemovedInstallationGetsNothingButTheReason() throws IOException {
    Organization other = stack.otherOrganization();
    create(other.api(), name, 1);
    long pr = pr("a", "a.txt");
    submit(other.api(), name, pr);

    JsonNode refused =
        awaitPr(
            other.api(),
            name,
            pr,
            p ->
                reason(p).filter(r -> r.contains("is not bound to this organization")).isPresent());
    assertThat(refused.get("state").asString()).isEqualTo("not_ready");
    assertThat(reason(refused).orElseThrow()).contains("is not bound to this organization");
    assertThat(repo.git().refs("refs/heads/trainyard-merge/")).isEmpty();
    assertThat(repo.checkRuns()).noneMatch(r -> r.name().equals("trainyard"));

    // the App is removed from the repository: the organization's own queue says why it waits
    create(api, name, 1);
    github.uninstall(INSTALLATION);
    try {
      submit(api, name, pr);
      JsonNode waiting =
          awaitPr(
              api, name, pr, p -> reason(p).filter(r -> r.contains("not installed")).isPresent());
      assertThat(waiting.get("state").asString()).isEqualTo("not_ready");
      assertThat(reason(waiting).orElseThrow())
          .isEqualTo("the GitHub App is not installed on acme/" + name);
    } finally {
      github.reinstall(INSTALLATION);
    }
    awaitState(api, name, pr, "merged");
  }

  @Test
  void aPermissionTheAppLacksShowsAsTheReasonUntilItIsGranted() {
    create(api, name, 1);
    long pr = pr("a", "a.txt");
    github.forbid("/pulls", true);
    try {
      submit(api, name, pr);
      JsonNode waiting =
          awaitPr(
              api,
              name,
              pr,
              p -> reason(p).filter(r -> r.contains("Resource not accessible")).isPresent());
      assertThat(waiting.get("state").asString()).isEqualTo("not_ready");
      assertThat(reason(waiting).orElseThrow())
          .contains("HTTP 403")
          .contains("the App needs read and write access");
    } finally {
      github.forbid("/pulls", false);
    }
    awaitState(api, name, pr, "merged");
  }

  private long pr(String branch, String file) {
    repo.push(branch, files(file, branch), "Add " + file);
    return repo.openPullRequest(branch, "main", "Add " + file, "alice");
  }

  /** Waits until PR {@code pr}'s only trainyard label is {@code label} (null: it has none). */
  private void awaitLabel(long pr, String label) {
    Awaitility.await()
        .atMost(QueueSteps.PATIENCE)
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              List<List<String>> history = trainyardLabels(pr);
              List<String> now = history.isEmpty() ? List.of() : history.get(history.size() - 1);
              return label == null
                  ? now.isEmpty() && !history.isEmpty()
                  : now.equals(List.of(label));
            });
  }

  /** PR {@code pr}'s trainyard labels after each change of its labels. */
  private List<List<String>> trainyardLabels(long pr) {
    return repo.labelHistory(pr).stream()
        .map(labels -> labels.stream().filter(l -> l.startsWith("trainyard:")).toList())
        .toList();
  }

  /**
   * Waits for trainyard's reply on PR {@code number} that starts with {@code start}. Before, an
   * ignored command got no answer at all.
   */
  private void awaitReply(long number, String start) {
    Awaitility.await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                repo.comments().stream()
                    .anyMatch(
                        c ->
                            c.issue() == number
                                && c.user().equals("trainyard[bot]")
                                && c.body().startsWith(start)));
  }

  private void update(String settings) {
    Api.Response updated = api.post("/v1/updateQueue", body(name, settings));
    assertThat(updated.status()).as(updated.body()).isEqualTo(200);
  }

  private CheckRun awaitCheck(long pr, String status, String conclusion) {
    return Awaitility.await()
        .atMost(QueueSteps.PATIENCE)
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              SimulatedRepository.PullRequest p = repo.pull(pr).orElseThrow();
              String head = repo.head(branchOf(p)).orElse(null);
              return repo.checkRuns().stream()
                  .filter(r -> r.name().equals("trainyard"))
                  .filter(r -> head == null || r.headSha().equals(head))
                  .filter(r -> r.status().equals(status))
                  .filter(r -> conclusion == null || conclusion.equals(r.conclusion()))
                  .findFirst()
                  .orElse(null);
            },
            r -> r != null);
  }

  private static String branchOf(SimulatedRepository.PullRequest pr) {
    return pr.headBranch();
  }

  private String cancellation(long pr) {
    return events().stream()
        .filter(e -> e.type().equals("pull_request.canceled"))
        .filter(e -> e.body().path("pr_number").asLong(0) == pr)
        .map(e -> e.body().get("cancellation_reason").asString())
        .findFirst()
        .orElseThrow();
  }

  private List<EventLog.Event> events() {
    return EventLog.readAll(stack.infrastructure().kafkaBootstrap()).stream()
        .filter(e -> e.body().get("repository") != null)
        .filter(e -> e.body().path("repository").path("name").asString("").equals(name))
        .toList();
  }

  private static Optional<String> reason(JsonNode pr) {
    JsonNode reason = pr.path("readiness").path("notReadyReason");
    return reason.isString() ? Optional.of(reason.asString()) : Optional.empty();
  }

  private Map<String, String> tree(String sha) {
    try {
      return repo.git().tree(ObjectId.fromString(sha));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The first published example of {@code event.action}, with an installation or without. */
  private static ObjectNode example(String event, String action) {
    try {
      return GithubDeliveries.examples().stream()
          .filter(e -> e.event().equals(event) && e.action().equals(action))
          .map(GithubDeliveries.Example::payload)
          .min((a, b) -> Boolean.compare(!a.has("installation"), !b.has("installation")))
          .orElseThrow(() -> new AssertionError("no published " + event + "." + action));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * CI as a GitHub App: completes check run {@code ci} on the head of every trainyard test branch,
   * a failure when the tree holds {@link #BROKEN}; held, it waits.
   */
  private static final class CiBot implements AutoCloseable {
    static final String BROKEN = "BROKEN";
    private final SimulatedRepository repo;
    private final Set<String> tested = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean held = new AtomicBoolean();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    CiBot(SimulatedRepository repo) {
      this.repo = repo;
      this.thread = new Thread(this::loop, "github-ci");
      thread.setDaemon(true);
      thread.start();
    }

    void hold(boolean hold) {
      held.set(hold);
    }

    Set<String> tested() {
      return Set.copyOf(tested);
    }

    private void loop() {
      while (running.get()) {
        try {
          if (!held.get()) {
            for (ObjectId head : repo.git().refs("refs/heads/trainyard-merge/").values()) {
              if (tested.add(head.name())) {
                boolean red = repo.git().tree(head).containsKey(BROKEN);
                repo.completeCheck(head.name(), CI, red ? "failure" : "success");
              }
            }
          }
          Thread.sleep(100);
        } catch (InterruptedException e) {
          return;
        } catch (IOException | RuntimeException e) {
          // a branch deleted while being read: the next round looks again
        }
      }
    }

    @Override
    public void close() {
      running.set(false);
      thread.interrupt();
    }
  }
}
