package dev.trainyard.worker.scm.github;

import static dev.trainyard.worker.scm.git.BareRepo.files;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.trainyard.common.command.CommandEnvelope;
import dev.trainyard.common.command.CommitState;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.command.QueueCommand.ReportStatus;
import dev.trainyard.common.command.RequiredCheck;
import dev.trainyard.common.github.GithubClient;
import dev.trainyard.common.github.GithubInstallation;
import dev.trainyard.common.queue.MergeCommitMessage;
import dev.trainyard.common.queue.MergeMethod;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.common.topic.Topics;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.SubmittedQueue;
import dev.trainyard.worker.projection.PublicEvents;
import dev.trainyard.worker.scm.CommitMessages;
import dev.trainyard.worker.scm.MergeResult;
import dev.trainyard.worker.scm.PullRequestHead;
import dev.trainyard.worker.scm.PullRequestUnreadable;
import dev.trainyard.worker.scm.ScmPullRequest;
import dev.trainyard.worker.scm.ScmRefused;
import dev.trainyard.worker.scm.TestBranchResult;
import dev.trainyard.worker.scm.github.SimulatedRepository.CheckRun;
import dev.trainyard.worker.signals.OwnedQueues;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;

/**
 * The GitHub App adapter on the GitHub simulator (real git behind GitHub's REST description): PRs
 * and their mergeability as GitHub reports them, test branches built in the repository, runs landed
 * by each merge method with the tested trees, a target moved by someone else never overwritten, and
 * an organization reaching only the installations bound to it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GithubScmTest {
  private static final CommitMessages MESSAGES =
      new CommitMessages(MergeCommitMessage.MERGE_DEFAULT, "run-1");

  private static final long INSTALLATION = 31;
  private static final OrgRepo ACME = new OrgRepo("acme", new RepoRef("github.com", "o", "r"));
  private OpenApiContract contract;
  private GithubSimulator github;
  private SimulatedRepository repo;
  private final Map<Long, GithubInstallation> bound = new ConcurrentHashMap<>();
  private GithubScm scm;

  @BeforeAll
  void description() throws Exception {
    contract = OpenApiContract.github();
  }

  @BeforeEach
  void start() throws Exception {
    github = new GithubSimulator(contract, InstantSource.system());
    repo = github.install(INSTALLATION, "o", "r");
    repo.push("main", files("base.txt", "0"), "base");
    bound.clear();
    bound.put(INSTALLATION, new GithubInstallation(INSTALLATION, "acme", "o", false, null));
    GithubClient client =
        GithubClient.create(
            github.api(),
            Long.toString(GithubSimulator.APP_ID),
            github.privateKeyPem(),
            InstantSource.system(),
            GithubClient.Sleeper.THREAD);
    scm =
        new GithubScm(
            client,
            "github.com",
            new GithubBindings(null) {
              @Override
              public Optional<GithubInstallation> find(long id) {
                return Optional.ofNullable(bound.get(id));
              }
            },
            InstantSource.system());
  }

  @AfterEach
  void stop() {
    assertThat(github.problems()).as("breaches of GitHub's REST description").isEmpty();
    github.close();
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource({
    "main, main",
    "release/2.0, release/2.0",
    "a/../b, a/%2E%2E/b",
    "../../user, %2E%2E/%2E%2E/user",
    "./x, %2E/x",
    "fix#1?x, fix%231%3Fx"
  })
  void aBranchNameNeverBecomesAnotherPathOfGithubsApi(String branch, String path) {
    assertThat(GithubClient.segments(branch)).isEqualTo(path);
  }

  @Test
  void aPullRequestGithubAnswers404ForIsNeverTakenForClosed() {
    assertThatThrownBy(() -> scm.pullRequest(ACME, 999, "main"))
        .as("the repository answers: nothing is known of this PR now")
        .isInstanceOf(PullRequestUnreadable.class)
        .hasMessageContaining("#999");
    long pr = pr("a", "a.txt", "1");
    assertThat(scm.pullRequest(ACME, pr, "main")).isPresent();

    github.removeFromInstallation(INSTALLATION, "o", "r");

    assertThatThrownBy(() -> scm.pullRequest(ACME, pr, "main"))
        .as("the repository left the installation: the queue's source problem")
        .isInstanceOf(java.io.UncheckedIOException.class)
        .hasMessageContaining("o/r");
  }

  /**
   * Before, one page of check runs and statuses was read (GitHub's 30 by default, 100 at most), and
   * every check named {@code trainyard} was taken for trainyard's own; check suites were not read.
   */
  @Test
  void aHeadContainsTheTargetWhileGithubComparesItAhead() throws Exception {
    String main = repo.head("main").orElseThrow();
    repo.git().setRef("refs/heads/feature", org.eclipse.jgit.lib.ObjectId.fromString(main));
    String feature = repo.push("feature", files("f.txt", "1"), "feature");

    assertThat(scm.containedTarget(ACME, "main", feature)).contains(main);

    repo.push("main", files("base.txt", "1"), "main moves");
    assertThat(scm.containedTarget(ACME, "main", feature)).isEmpty();
  }

  @Test
  void ciResultsAreReadToTheEndAndOnlyTheAppsOwnCheckIsLeftOut() {
    String sha = repo.head("main").orElseThrow();
    for (int i = 0; i < 130; i++) {
      repo.completeCheck(sha, "job-" + i, "success");
    }
    repo.completeCheck(sha, "trainyard", "failure", 777);
    scm.publishCheck(
        ACME, sha, null, new GithubScm.CheckOutput("queued", "summary", null, "https://t/1"));

    List<ReportStatus> reports = scm.reports(ACME, sha);

    assertThat(reports).filteredOn(r -> r.context().startsWith("job-")).hasSize(130);
    assertThat(reports)
        .filteredOn(r -> r.context().equals("trainyard"))
        .singleElement()
        .as("another App's check of the same name is a CI result")
        .matches(r -> r.appId() == 777 && r.state() == CommitState.FAILURE);
    assertThat(reports)
        .filteredOn(r -> r.context().startsWith("check suite"))
        .extracting(ReportStatus::appId, ReportStatus::state)
        .as("the suites with runs, but trainyard's own")
        .containsExactlyInAnyOrder(
            tuple(SimulatedRepository.CI_APP, CommitState.SUCCESS),
            tuple(777L, CommitState.FAILURE));
  }

  /**
   * Vercel's Bot reports a commit status, and the branch requires check {@code Vercel} of the
   * Vercel App. Before, statuses were read without who made them and never matched a check bound to
   * an App: such a run waited until it timed out.
   */
  @Test
  void aStatusMadeByAnAppsBotCountsForACheckBoundToThatApp() {
    github.registerApp("vercel", 8329);
    String sha = repo.head("main").orElseThrow();
    repo.setStatus(sha, "Vercel", "pending", "vercel");
    repo.setStatus(sha, "Vercel", "success", "vercel");
    repo.setStatus(sha, "ci/jenkins", "failure");
    RequiredCheck vercel = new RequiredCheck("Vercel", 8329L);

    List<ReportStatus> reports = scm.reports(ACME, sha);
    scm.reports(ACME, sha);

    assertThat(reports)
        .filteredOn(r -> r.context().equals("Vercel"))
        .singleElement()
        .as("the newest status of the context, with the App of the Bot that made it")
        .matches(r -> r.state() == CommitState.SUCCESS && vercel.matches(r.context(), r.appId()));
    assertThat(reports)
        .filteredOn(r -> r.context().equals("ci/jenkins"))
        .singleElement()
        .matches(r -> r.appId() == null && r.state() == CommitState.FAILURE);
    assertThat(github.calls().stream().filter(call -> call.equals("GET /apps/vercel")))
        .as("GitHub is asked which App it is once")
        .hasSize(1);
  }

  @Test
  void aSuiteStillRunningIsPendingAfterItsRunsSoFarCompleted() {
    String sha = repo.head("main").orElseThrow();
    repo.holdSuite(sha, SimulatedRepository.CI_APP);
    repo.completeCheck(sha, "build", "success");

    assertThat(scm.reports(ACME, sha))
        .filteredOn(r -> r.context().startsWith("check suite"))
        .singleElement()
        .matches(r -> r.state() == CommitState.PENDING);

    repo.releaseSuite(sha, SimulatedRepository.CI_APP);

    assertThat(scm.reports(ACME, sha))
        .filteredOn(r -> r.context().startsWith("check suite"))
        .singleElement()
        .matches(r -> r.state() == CommitState.SUCCESS);
  }

  @Test
  void theAppsOwnCheckIsFoundByItsAppNotByItsName() {
    String sha = repo.head("main").orElseThrow();
    repo.completeCheck(sha, "trainyard", "success", 777);

    long id =
        scm.publishCheck(
            ACME, sha, null, new GithubScm.CheckOutput("queued", "summary", null, "https://t/1"));

    assertThat(repo.checkRuns())
        .filteredOn(r -> r.name().equals("trainyard"))
        .extracting(SimulatedRepository.CheckRun::appId)
        .as("another App's check of that name is left as it was; trainyard creates its own")
        .containsExactlyInAnyOrder(777L, GithubSimulator.APP_ID);
    assertThat(repo.checkRuns()).anyMatch(r -> r.id() == id && r.appId() == GithubSimulator.APP_ID);
  }

  /**
   * A refusal GitHub will repeat (a permission the App lacks) is told apart from one a retry may
   * not meet (a secondary rate limit), so the effect is not repeated every few seconds.
   */
  @Test
  void aRefusalGithubWillRepeatIsToldApartFromARateLimit() {
    long a = pr("a", "a.txt", "1");
    github.forbid("/merges", true);

    assertThatThrownBy(
            () ->
                scm.buildTestBranch(
                    ACME, "main", "trainyard-merge/main/run-1", null, heads(a), now(), MESSAGES))
        .isInstanceOf(ScmRefused.class)
        .hasMessageContaining("HTTP 403");

    github.forbid("/merges", false);
    github.secondaryLimitWithoutRetryAfter();
    assertThatThrownBy(
            () ->
                scm.buildTestBranch(
                    ACME, "main", "trainyard-merge/main/run-1", null, heads(a), now(), MESSAGES))
        .isInstanceOf(UncheckedIOException.class)
        .isNotInstanceOf(ScmRefused.class);
  }

  /** Before, only the first 100 comments were searched for the marker: a busy PR got two. */
  @Test
  void aFailureIsCommentedOnceEvenOnAPullRequestWithMoreThanAHundredComments() {
    long pr = pr("a", "a.txt", "1");
    for (int i = 0; i < 120; i++) {
      repo.comment(pr, "alice", i == 110 ? "earlier <!-- marker-1 -->" : "comment " + i);
    }

    scm.commentOnce(ACME, pr, "<!-- marker-1 -->", "failed");
    scm.commentOnce(ACME, pr, "<!-- marker-2 -->", "failed again");
    scm.commentOnce(ACME, pr, "<!-- marker-2 -->", "failed again");

    assertThat(repo.comments()).hasSize(121);
    assertThat(repo.comments().get(120).body()).contains("marker-2");
  }

  @Test
  void requiredChecksAreReadFromClassicProtectionAndRulesets() {
    assertThat(scm.requiredChecks(ACME, "main", false).orElseThrow().checks())
        .as("an unprotected branch requires nothing")
        .isEmpty();

    repo.protect("main", "ci/slow");
    repo.ruleset("main", "lint");

    assertThat(scm.requiredChecks(ACME, "main", false).orElseThrow().checks())
        .as("cached for ten minutes unless GitHub says they changed")
        .isEmpty();
    var fresh = scm.requiredChecks(ACME, "main", true).orElseThrow();
    assertThat(fresh.checks())
        .containsExactly(RequiredCheck.named("ci/slow"), RequiredCheck.named("lint"));
    assertThat(fresh.problem()).isNull();
  }

  /**
   * 30 rules of other rulesets put the branch's required check on GitHub's second page of rules.
   * Before, only the first page was read and {@code lint} was not required.
   */
  @Test
  void aRequiredCheckOnTheSecondPageOfRulesIsRequired() {
    repo.otherRulesets("main", 30);
    repo.ruleset("main", "lint");

    assertThat(scm.requiredChecks(ACME, "main", true).orElseThrow().checks())
        .containsExactly(RequiredCheck.named("lint"));
  }

  @Test
  void requiredChecksGithubRefusesToShowAreAProblemNotAGuess() {
    github.forbid("/rules", true);

    var refused = scm.requiredChecks(ACME, "main", true).orElseThrow();

    assertThat(refused.checks()).isEmpty();
    assertThat(refused.problem())
        .contains("HTTP 403")
        .contains("Resource not accessible by integration")
        .contains("requiredStatuses");
  }

  @Test
  void aPullRequestIsReadWithGithubsMergeability() {
    long clean = pr("a", "a.txt", "1");
    repo.push("b", files("base.txt", "conflict"), "b");
    long conflicting = repo.openPullRequest("b", "main", "Change base", "bob");
    long blocked = pr("c", "c.txt", "1");
    repo.block(blocked, true);

    ScmPullRequest read = scm.pullRequest(ACME, clean, "main").orElseThrow();
    assertThat(read.headSha()).isEqualTo(repo.head("a").orElseThrow());
    assertThat(read.headBranch()).isEqualTo("a");
    assertThat(read.baseBranch()).isEqualTo("main");
    assertThat(read.title()).isEqualTo("PR a");
    assertThat(read.author()).isEqualTo("alice");
    assertThat(read.mergeability()).isEqualTo(Mergeability.MERGEABLE);
    assertThat(scm.pullRequest(ACME, conflicting, "main").orElseThrow().mergeability())
        .isEqualTo(Mergeability.NOT_MERGEABLE);
    ScmPullRequest held = scm.pullRequest(ACME, blocked, "main").orElseThrow();
    assertThat(held.mergeability())
        .as("GitHub could merge it: no conflict")
        .isEqualTo(Mergeability.MERGEABLE);
    assertThat(held.hold()).as("its own outcome, not a conflict").contains("approving review");
    assertThat(read.hold()).isNull();

    // read again unchanged: GitHub answers 304 to the ETag, which costs no rate limit
    assertThat(scm.pullRequest(ACME, clean, "main")).contains(read);
    assertThat(github.answered()).contains("GET /repos/o/r/pulls/" + clean + " 304");

    repo.close(clean);
    assertThat(scm.pullRequest(ACME, clean, "main")).isEmpty();
  }

  /**
   * CI that runs only on trainyard's branches leaves PR heads without the checks the branch
   * requires, and GitHub reports them {@code blocked}. Before, every such PR was held not ready
   * forever; now only a review GitHub waits for holds a PR (its GraphQL {@code reviewDecision}).
   */
  @Test
  void onlyAReviewHoldsAPullRequestGithubBlocks() {
    long checksOnly = pr("a", "a.txt", "1");
    long changes = pr("b", "b.txt", "2");
    long unreviewed = pr("c", "c.txt", "3");
    repo.blockOnChecks(checksOnly);
    repo.requestChanges(changes);
    repo.block(unreviewed, true);

    assertThat(scm.pullRequest(ACME, checksOnly, "main").orElseThrow().hold())
        .as("the checks GitHub misses are the queue's to run")
        .isNull();
    assertThat(scm.pullRequest(ACME, changes, "main").orElseThrow().hold())
        .contains("requested changes");
    assertThat(scm.pullRequest(ACME, unreviewed, "main").orElseThrow().hold())
        .contains("approving review");
    scm.pullRequest(ACME, changes, "main");
    assertThat(github.calls().stream().filter(c -> c.equals("POST /graphql")))
        .as("a PR GitHub shows unchanged is not asked about again")
        .hasSize(3);
  }

  @Test
  void aTestBranchIsBuiltInTheRepositoryAndAConflictNamesItsPullRequest() throws Exception {
    long a = pr("a", "a.txt", "1");
    long b = pr("b", "b.txt", "2");
    TestBranchResult built =
        scm.buildTestBranch(
            ACME, "main", "trainyard-merge/main/run-1", null, heads(a, b), now(), MESSAGES);

    TestBranchResult.Built ok = (TestBranchResult.Built) built;
    assertThat(ok.baseSha()).isEqualTo(repo.head("main").orElseThrow());
    assertThat(repo.head("trainyard-merge/main/run-1")).contains(ok.sha());
    assertThat(tree(ok.sha())).containsEntry("a.txt", "1").containsEntry("b.txt", "2");
    assertThat(repo.pushesTo("refs/heads/trainyard-merge/main/run-1"))
        .as("a batch of two reaches the branch CI watches as one push: one pipeline")
        .isEqualTo(1);
    assertThat(repo.head("trainyard-scratch/main/run-1"))
        .as("the scratch branch is gone")
        .isEmpty();

    // built again (a worker stopped before recording it): the same branch starts over
    TestBranchResult again =
        scm.buildTestBranch(
            ACME, "main", "trainyard-merge/main/run-1", null, heads(a, b), now(), MESSAGES);
    assertThat(tree(((TestBranchResult.Built) again).sha())).isEqualTo(tree(ok.sha()));

    repo.push("c", files("a.txt", "other"), "c");
    long c = repo.openPullRequest("c", "main", "PR c", "carol");
    assertThat(
            scm.buildTestBranch(
                ACME, "main", "trainyard-merge/main/run-2", null, heads(a, c), now(), MESSAGES))
        .isEqualTo(new TestBranchResult.Conflict(c));
    assertThat(repo.head("trainyard-merge/main/run-2")).as("no branch for a conflict").isEmpty();
    assertThat(repo.head("trainyard-scratch/main/run-2")).isEmpty();

    scm.deleteBranch(ACME, "trainyard-merge/main/run-1");
    scm.deleteBranch(ACME, "trainyard-merge/main/run-1"); // gone already: not an error
    assertThat(repo.head("trainyard-merge/main/run-1")).isEmpty();
  }

  /**
   * A test PR whose number was never recorded (the run ended between opening it and recording it)
   * is not closed by trainyard: deleting its branch closes it, as GitHub does, and the PR still
   * reads with the head it had.
   */
  @Test
  void deletingATestBranchClosesTheTestPullRequestNobodyRecorded() {
    long a = pr("a", "a.txt", "1");
    String branch = "trainyard-merge/main/run-9";
    TestBranchResult.Built built =
        (TestBranchResult.Built)
            scm.buildTestBranch(ACME, "main", branch, null, heads(a), now(), MESSAGES);
    long testPr = scm.openTestPullRequest(ACME, "main", branch, heads(a)).orElseThrow();

    scm.deleteBranch(ACME, branch);

    SimulatedRepository.PullRequest closed = repo.pull(testPr).orElseThrow();
    assertThat(closed.open()).as("closed with its branch").isFalse();
    assertThat(closed.merged()).isFalse();
    assertThat(repo.headOf(closed)).isEqualTo(built.sha());
    assertThat(scm.pullRequest(ACME, testPr, "main")).as("read back: closed").isEmpty();
    assertThat(scm.pullRequest(ACME, a, "main")).as("the PR it tested is untouched").isPresent();
  }

  /**
   * Two workers build one run at once — the queue's partition moved while the first was building —
   * with GitHub slow on every merge, so their calls interleave (before: they shared one scratch
   * branch, each reset it to the base for the other, and a test commit missing a PR could be
   * recorded). Each reports the commit the test branch holds, which contains every PR head, and CI
   * sees one push. The first builder's result, started in the previous owner's epoch, is refused by
   * the new owner's fence.
   */
  @Test
  void twoBuildersOfOneRunReportTheBranchHeadWithEveryPullRequestInIt() throws Exception {
    long a = pr("a", "a.txt", "1");
    long b = pr("b", "b.txt", "2");
    long c = pr("c", "c.txt", "3");
    String branch = "trainyard-merge/main/run-9";
    github.slow("/merges", Duration.ofMillis(250));
    ExecutorService two = Executors.newFixedThreadPool(2);
    TestBranchResult.Built first;
    TestBranchResult.Built second;
    try {
      java.util.concurrent.Future<TestBranchResult> previousOwner =
          two.submit(
              () ->
                  scm.buildTestBranch(ACME, "main", branch, null, heads(a, b, c), now(), MESSAGES));
      Thread.sleep(120); // the second starts while the first is between its merges
      java.util.concurrent.Future<TestBranchResult> newOwner =
          two.submit(
              () ->
                  scm.buildTestBranch(ACME, "main", branch, null, heads(a, b, c), now(), MESSAGES));
      first = (TestBranchResult.Built) previousOwner.get(30, TimeUnit.SECONDS);
      second = (TestBranchResult.Built) newOwner.get(30, TimeUnit.SECONDS);
    } finally {
      two.shutdownNow();
      github.slow("/merges", Duration.ZERO);
    }

    String head = repo.head(branch).orElseThrow();
    assertThat(List.of(first.sha(), second.sha())).containsOnly(head);
    for (PullRequestHead pr : heads(a, b, c)) {
      assertThat(repo.contains(head, pr.sha())).as("#%d in the test commit", pr.number()).isTrue();
      assertThat(second.containedHeads()).contains(pr.sha());
    }
    assertThat(tree(head))
        .containsEntry("a.txt", "1")
        .containsEntry("b.txt", "2")
        .containsEntry("c.txt", "3");
    assertThat(repo.pushesTo("refs/heads/" + branch)).as("one CI pipeline").isEqualTo(1);
    assertThat(repo.git().refs("refs/heads/trainyard-scratch/")).as("no scratch left").isEmpty();

    // the partition moved from epoch 3 to epoch 7: the new owner refuses the first one's result
    OwnedQueues newOwner = new OwnedQueues(new KafkaListenerEndpointRegistry(), 12);
    QueueKey key = QueueKey.of("acme", "github.com", "o", "r", "main");
    newOwner.took(
        List.of(new TopicPartition(Topics.QUEUE_COMMANDS, newOwner.partitionOf(key.id()))),
        this,
        7);
    assertThat(newOwner.fence().stale(result(key, first, 3))).as("previous owner's").isTrue();
    assertThat(newOwner.fence().stale(result(key, second, 7))).as("its own").isFalse();
  }

  private static CommandEnvelope result(QueueKey key, TestBranchResult.Built built, long epoch) {
    return new CommandEnvelope(
            UUID.randomUUID().toString(),
            null,
            key,
            Instant.now(),
            new QueueCommand.RecordTestBranch(
                "run-9", built.baseSha(), built.sha(), null, built.containedHeads()))
        .withEpoch(epoch);
  }

  @ParameterizedTest
  @EnumSource(MergeMethod.class)
  void aTestedRunLandsWithTheTestedTreeByEachMergeMethod(MergeMethod method) throws Exception {
    long a = pr("a", "a.txt", "1");
    long b = pr("b", "b.txt", "2");
    String base = repo.head("main").orElseThrow();
    TestBranchResult.Built run = tested(a, b);

    MergeResult landed =
        scm.merge(ACME, "main", base, base, run.sha(), method, heads(a, b), MESSAGES);

    String main = repo.head("main").orElseThrow();
    assertThat(landed).isEqualTo(new MergeResult.Merged(main));
    assertThat(tree(main)).isEqualTo(tree(run.sha()));
    if (method == MergeMethod.MERGE_COMMIT) {
      assertThat(main).as("fast-forwarded to the tested commit").isEqualTo(run.sha());
    }
    assertThat(repo.pull(a).orElseThrow().merged()).isTrue();
    assertThat(repo.pull(b).orElseThrow().merged()).isTrue();
    // asked again (the result was lost): the landing is recognised, nothing moves
    assertThat(scm.merge(ACME, "main", base, base, run.sha(), method, heads(a, b), MESSAGES))
        .isEqualTo(new MergeResult.Merged(main));
    assertThat(repo.head("main")).contains(main);
  }

  /**
   * A squash writes the queue's template through GitHub's merge endpoint ({@code commit_title},
   * {@code commit_message}) with the PR's description and the other authors of its commits from
   * GitHub; a merge commit's template is the test branch's merge, which lands as tested; the squash
   * default is GitHub's own shape (title and number, then the description).
   */
  @Test
  void theQueuesTemplateWritesEachCommitGithubLandsAndTheTestBranchsMerges() throws Exception {
    long a = pr("a", "a.txt", "1");
    repo.push("a", files("a.txt", "1, reviewed"), "review a", "bob");
    repo.pull(a).orElseThrow().describe("Why a:\r\nbecause.");
    long b = pr("b", "b.txt", "2");
    MergeCommitMessage template =
        MergeCommitMessage.of(
            "{{title}} (#{{number}}) for {{author}}", "{{body}}\n\nRun: {{runId}}\n{{coAuthors}}");
    String base = repo.head("main").orElseThrow();
    TestBranchResult.Built run = tested(a, b);

    MergeResult landed =
        scm.merge(
            ACME,
            "main",
            base,
            base,
            run.sha(),
            MergeMethod.SQUASH,
            heads(a, b),
            new CommitMessages(template, "run-7"));

    assertThat(landed).isInstanceOf(MergeResult.Merged.class);
    assertThat(
            repo.ownCommits(base, repo.head("main").orElseThrow()).stream()
                .map(commit -> commit.getFullMessage()))
        .containsExactly(
            "PR a (#"
                + a
                + ") for alice\n\nWhy a:\nbecause.\n\nRun: run-7\nCo-authored-by: bob"
                + " <bob@example.com>\n",
            "PR b (#" + b + ") for alice\n\nRun: run-7\n");

    long c = pr("c", "c.txt", "3");
    repo.pull(c).orElseThrow().describe("What c does.");
    String next = repo.head("main").orElseThrow();
    TestBranchResult.Built merged =
        (TestBranchResult.Built)
            scm.buildTestBranch(
                ACME,
                "main",
                "trainyard-merge/main/run-8",
                null,
                heads(c),
                now(),
                new CommitMessages(MergeCommitMessage.of("Land #{{number}}", "{{body}}"), "run-8"));
    assertThat(repo.message(merged.sha())).isEqualTo("Land #" + c + "\n\nWhat c does.\n");
    long d = pr("d", "d.txt", "4");
    repo.pull(d).orElseThrow().describe("What d does.");
    TestBranchResult.Built squashRun =
        (TestBranchResult.Built)
            scm.buildTestBranch(
                ACME, "main", "trainyard-merge/main/run-9", next, heads(d), now(), MESSAGES);
    scm.merge(
        ACME,
        "main",
        next,
        next,
        squashRun.sha(),
        MergeMethod.SQUASH,
        heads(d),
        new CommitMessages(MergeCommitMessage.SQUASH_DEFAULT, "run-9"));
    assertThat(repo.message(repo.head("main").orElseThrow()))
        .isEqualTo("PR d (#" + d + ")\n\nWhat d does.\n");
  }

  /**
   * GitHub answers 405 "Base branch was modified" to the merge call after each merge of the batch
   * moved main (the simulator's {@code raceAfterEachMerge}). Before, that read as a target someone
   * else moved: the run was cancelled with its first PR already merged.
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.EnumSource(
      value = MergeMethod.class,
      names = {"SQUASH", "REBASE"})
  void aBatchLandsWholeThroughTheRaceItsOwnMergesCause(MergeMethod method) throws Exception {
    long a = pr("a", "a.txt", "1");
    long b = pr("b", "b.txt", "2");
    long c = pr("c", "c.txt", "3");
    String base = repo.head("main").orElseThrow();
    TestBranchResult.Built run = tested(a, b, c);
    repo.raceAfterEachMerge(1);

    MergeResult landed =
        scm.merge(ACME, "main", base, base, run.sha(), method, heads(a, b, c), MESSAGES);

    String main = repo.head("main").orElseThrow();
    assertThat(landed).isEqualTo(new MergeResult.Merged(main));
    assertThat(tree(main)).isEqualTo(tree(run.sha()));
    for (long pr : List.of(a, b, c)) {
      assertThat(repo.pull(pr).orElseThrow().merged()).as("#" + pr).isTrue();
    }
    assertThat(github.calls().stream().filter(call -> call.endsWith("/merge")))
        .as("one merge call per PR, and one more for each race")
        .hasSize(5);
  }

  /**
   * Someone pushes to main while GitHub answers the first merge call with the race: the merge
   * endpoint takes no base, so trying again would squash the PR onto their push, a tree CI never
   * tested. Found by review: the retry did so.
   */
  @Test
  void aRaceWhileSomeoneElsePushesIsNotTriedAgainOntoTheirPush() throws Exception {
    long a = pr("a", "a.txt", "1");
    String base = repo.head("main").orElseThrow();
    TestBranchResult.Built run = tested(a);
    String[] pushed = new String[1];
    repo.raceNextMerge("main", () -> pushed[0] = repo.push("main", files("x.txt", "x"), "hotfix"));

    MergeResult result =
        scm.merge(ACME, "main", base, base, run.sha(), MergeMethod.SQUASH, heads(a), MESSAGES);

    assertThat(result).isEqualTo(new MergeResult.TargetMoved(pushed[0]));
    assertThat(repo.pull(a).orElseThrow().merged()).isFalse();
    assertThat(repo.head("main")).contains(pushed[0]);
  }

  /**
   * A person pushed to #a after the run was tested and merged it themselves: the run's landing,
   * asked for again, does not take that merge for its own and land #b on it. Found by review: it
   * continued with #b.
   */
  @Test
  void aMergeAPersonMadeAtAnotherHeadIsNotContinued() throws Exception {
    long a = pr("a", "a.txt", "1");
    long b = pr("b", "b.txt", "2");
    String base = repo.head("main").orElseThrow();
    List<PullRequestHead> tested = heads(a, b);
    TestBranchResult.Built run =
        (TestBranchResult.Built)
            scm.buildTestBranch(
                ACME, "main", "trainyard-merge/main/r", null, tested, now(), MESSAGES);
    String late = repo.push("a", files("late.txt", "untested"), "pushed after the test");
    scm.merge(ACME, "main", base, base, late, MergeMethod.SQUASH, heads(a), MESSAGES);

    MergeResult result =
        scm.merge(ACME, "main", base, base, run.sha(), MergeMethod.SQUASH, tested, MESSAGES);

    assertThat(result).isEqualTo(new MergeResult.TargetMoved(repo.head("main").orElseThrow()));
    assertThat(repo.pull(b).orElseThrow().merged()).isFalse();
  }

  /** How a batch stops midway, and what the adapter says of it (one row each). */
  record Midway(
      String why, java.util.function.BiConsumer<SimulatedRepository, Long> given, String saying) {
    @Override
    public String toString() {
      return why;
    }
  }

  static java.util.stream.Stream<Midway> midway() {
    return java.util.stream.Stream.of(
        new Midway(
            "a check protection requires is missing on the second PR's head",
            (repo, second) -> repo.blockOnChecks(second),
            "(mergeable_state: blocked)"),
        new Midway(
            "GitHub keeps answering that the base was modified",
            (repo, second) -> repo.raceAfterEachMerge(GithubLanding.RACE_ATTEMPTS),
            "still answered \"Base branch was modified\" after 4 attempts"),
        new Midway(
            "strict required checks refuse the second PR, behind the first one's merge",
            (repo, second) -> repo.requireUpToDate("main"),
            "requires pull requests to be up to date"));
  }

  /**
   * Before, a refusal after the first merge of a squash batch marked every PR of the run failed,
   * the one GitHub merged included. Now what GitHub merged is reported merged, with where the
   * target is, and the PR that stopped it with GitHub's words.
   */
  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.MethodSource("midway")
  void aBatchStoppedMidwayReportsWhatGithubMerged(Midway row) throws Exception {
    String base = repo.head("main").orElseThrow();
    // both branches start at main, so with strict checks b is up to date until a merges
    repo.setRef("refs/heads/a", base);
    repo.setRef("refs/heads/b", base);
    repo.push("a", files("a.txt", "1"), "change a.txt");
    long a = repo.openPullRequest("a", "main", "PR a", "alice");
    repo.push("b", files("b.txt", "2"), "change b.txt");
    long b = repo.openPullRequest("b", "main", "PR b", "alice");
    TestBranchResult.Built run = tested(a, b);
    row.given().accept(repo, b);

    MergeResult result =
        scm.merge(ACME, "main", base, base, run.sha(), MergeMethod.SQUASH, heads(a, b), MESSAGES);

    assertThat(result).isInstanceOf(MergeResult.PartlyMerged.class);
    MergeResult.PartlyMerged partly = (MergeResult.PartlyMerged) result;
    assertThat(partly.merged()).containsExactly(a);
    assertThat(partly.stoppedAt()).isEqualTo(b);
    assertThat(partly.targetSha()).isEqualTo(repo.head("main").orElseThrow());
    assertThat(partly.why()).contains(row.saying());
    assertThat(repo.pull(a).orElseThrow().merged()).isTrue();
    assertThat(repo.pull(b).orElseThrow().merged()).isFalse();
  }

  /**
   * A worker that stopped after GitHub merged the first PR of a batch: the landing asked for again
   * continues with the rest. Before, the moved target read as someone else's push.
   */
  @Test
  void aLandingThatStoppedMidwayContinuesWhereGithubShowsIt() throws Exception {
    long a = pr("a", "a.txt", "1");
    long b = pr("b", "b.txt", "2");
    String base = repo.head("main").orElseThrow();
    TestBranchResult.Built run = tested(a, b);
    scm.merge(
        ACME,
        "main",
        base,
        base,
        repo.head("a").orElseThrow(),
        MergeMethod.SQUASH,
        heads(a),
        MESSAGES);

    MergeResult landed =
        scm.merge(ACME, "main", base, base, run.sha(), MergeMethod.SQUASH, heads(a, b), MESSAGES);

    String main = repo.head("main").orElseThrow();
    assertThat(landed).isEqualTo(new MergeResult.Merged(main));
    assertThat(tree(main)).isEqualTo(tree(run.sha()));
    assertThat(repo.pull(b).orElseThrow().merged()).isTrue();

    // the same, but someone pushed after the first merge: the rest is not landed on their push
    long c = pr("c", "c.txt", "3");
    long d = pr("d", "d.txt", "4");
    String before = repo.head("main").orElseThrow();
    TestBranchResult.Built next =
        (TestBranchResult.Built)
            scm.buildTestBranch(
                ACME, "main", "trainyard-merge/main/s", null, heads(c, d), now(), MESSAGES);
    scm.merge(
        ACME,
        "main",
        before,
        before,
        repo.head("c").orElseThrow(),
        MergeMethod.SQUASH,
        heads(c),
        MESSAGES);
    String pushed = repo.push("main", files("hotfix.txt", "!"), "hotfix by hand");

    MergeResult stopped =
        scm.merge(
            ACME, "main", before, before, next.sha(), MergeMethod.SQUASH, heads(c, d), MESSAGES);

    assertThat(stopped)
        .isEqualTo(
            new MergeResult.PartlyMerged(
                List.of(c),
                pushed,
                d,
                "someone else moved the target branch after GitHub merged them"));
    assertThat(repo.pull(d).orElseThrow().merged()).isFalse();
  }

  /**
   * A PR whose branch merged main and added a file in that merge commit: GitHub's rebase would drop
   * it ({@code rebaseable} false, "This branch can't be rebased"). Every method lands the tested
   * tree, or refuses before anything moves.
   */
  @ParameterizedTest
  @EnumSource(MergeMethod.class)
  void aBranchThatMergedMainLandsTheTestedTreeOrNothingMoves(MergeMethod method) throws Exception {
    ObjectId start = ObjectId.fromString(repo.head("main").orElseThrow());
    Map<String, String> own = tree(start.name());
    own.put("b.txt", "b");
    ObjectId ownCommit = repo.git().commit(start, own, "Add b", "alice");
    String moved = repo.push("main", files("m.txt", "m"), "Add m");
    Map<String, String> merged = tree(moved);
    merged.put("b.txt", "b");
    merged.put("extra.txt", "added while merging main");
    ObjectId head =
        repo.git()
            .commitOf(List.of(ownCommit, ObjectId.fromString(moved)), merged, "Merge", "alice");
    repo.setRef("refs/heads/feature", head.name());
    long pr = repo.openPullRequest("feature", "main", "PR feature", "alice");
    TestBranchResult.Built run = tested(pr);
    assertThat(tree(run.sha())).isEqualTo(merged);

    MergeResult landed =
        scm.merge(ACME, "main", moved, moved, run.sha(), method, heads(pr), MESSAGES);

    if (method == MergeMethod.REBASE) {
      assertThat(landed).isInstanceOf(MergeResult.TreeDiffers.class);
      assertThat(((MergeResult.TreeDiffers) landed).prNumber()).isEqualTo(pr);
      assertThat(repo.head("main")).contains(moved);
      assertThat(repo.pull(pr).orElseThrow().merged()).isFalse();
    } else {
      String main = repo.head("main").orElseThrow();
      assertThat(landed).isEqualTo(new MergeResult.Merged(main));
      assertThat(tree(main)).isEqualTo(merged);
    }
  }

  /**
   * A PR based on another PR's branch is stacked on it (GitHub's list of open PRs with that head);
   * landed after it, it is retargeted onto the target first, so GitHub merges it there and shows it
   * merged (unretargeted, a squash would land it on the branch below).
   */
  @ParameterizedTest
  @EnumSource(
      value = MergeMethod.class,
      names = {"MERGE_COMMIT", "SQUASH"})
  void aPullRequestOnAnothersBranchIsStackedOnItAndRetargetedAsItLands(MergeMethod method)
      throws Exception {
    // a branch name with a slash: the lookup of the PR below encodes it
    long a = pr("team/a", "a.txt", "1");
    repo.branch("b", "team/a");
    repo.push("b", files("b.txt", "2"), "change b.txt", "bob");
    long b = repo.openPullRequest("b", "team/a", "PR b", "bob");

    ScmPullRequest stacked = scm.pullRequest(ACME, b, "main").orElseThrow();
    assertThat(stacked.baseBranch()).isEqualTo("team/a");
    assertThat(stacked.stackedOn()).isEqualTo(a);
    assertThat(stacked.dependsOn()).containsExactly(a);
    assertThat(scm.pullRequest(ACME, a, "main").orElseThrow().stackedOn()).isNull();

    String base = repo.head("main").orElseThrow();
    TestBranchResult.Built runA = tested(a);
    assertThat(scm.merge(ACME, "main", base, base, runA.sha(), method, heads(a), MESSAGES))
        .isInstanceOf(MergeResult.Merged.class);
    String afterA = repo.head("main").orElseThrow();
    assertThat(scm.pullRequest(ACME, b, "main").orElseThrow().stackedOn())
        .as("still stacked on a once a merged, until it is retargeted")
        .isEqualTo(a);
    List<PullRequestHead> stack =
        List.of(new PullRequestHead(b, repo.headOf(repo.pull(b).orElseThrow()), "PR b", "team/a"));
    TestBranchResult.Built runB =
        (TestBranchResult.Built)
            scm.buildTestBranch(
                ACME, "main", "trainyard-merge/main/rb", afterA, stack, now(), MESSAGES);

    MergeResult landed =
        scm.merge(ACME, "main", afterA, afterA, runB.sha(), method, stack, MESSAGES);

    String main = repo.head("main").orElseThrow();
    assertThat(landed).isEqualTo(new MergeResult.Merged(main));
    assertThat(tree(main)).isEqualTo(tree(runB.sha()));
    SimulatedRepository.PullRequest pull = repo.pull(b).orElseThrow();
    assertThat(pull.base).as("retargeted onto the target").isEqualTo("main");
    assertThat(pull.merged()).isTrue();
    assertThat(repo.head("team/a"))
        .as("the branch below is untouched")
        .contains(repo.headOf(repo.pull(a).orElseThrow()));
  }

  @Test
  void aDependencyIsGithubsOwnAnswerOpenOnItsBaseOrMerged() throws Exception {
    repo.push("release-1", files("r.txt", "r"), "Start release 1");
    repo.push("fix", files("fix.txt", "f"), "Fix");
    long fix = repo.openPullRequest("fix", "release-1", "Fix on the release", "alice");
    assertThat(scm.dependency(ACME, fix, "main"))
        .contains(new dev.trainyard.common.command.HostDependency(fix, false, true, "release-1"));
    String base = repo.head("release-1").orElseThrow();
    scm.merge(
        ACME,
        "release-1",
        base,
        base,
        repo.head("fix").orElseThrow(),
        MergeMethod.SQUASH,
        heads(fix),
        MESSAGES);
    assertThat(scm.dependency(ACME, fix, "main"))
        .contains(new dev.trainyard.common.command.HostDependency(fix, true, false, "release-1"));
    assertThat(scm.dependency(ACME, 999, "main")).isEmpty();
  }

  /** How GitHub refuses a landing, and what the adapter makes of it (one row each). */
  record Refusal(
      String why,
      MergeMethod method,
      java.util.function.BiConsumer<SimulatedRepository, Long> given,
      Class<? extends MergeResult> expected,
      String saying) {
    @Override
    public String toString() {
      return why;
    }
  }

  static java.util.stream.Stream<Refusal> refusals() {
    return java.util.stream.Stream.of(
        new Refusal(
            "protection without a bypass refuses the ref update: refused, not a moved target",
            MergeMethod.MERGE_COMMIT,
            (repo, pr) -> repo.protectRef("main"),
            MergeResult.Refused.class,
            "Protected branch update failed for refs/heads/main."),
        new Refusal(
            "a merge method the repository disables: refused, not a conflict",
            MergeMethod.SQUASH,
            (repo, pr) -> repo.disableMergeMethod("squash"),
            MergeResult.Refused.class,
            "Squash merges are not allowed on this repository."),
        new Refusal(
            "a check protection requires is missing on the head: refused with GitHub's state",
            MergeMethod.REBASE,
            (repo, pr) -> repo.blockOnChecks(pr),
            MergeResult.Refused.class,
            "(mergeable_state: blocked)"),
        new Refusal(
            "a review protection requires is missing: held, read again, for every method",
            MergeMethod.REBASE,
            (repo, pr) -> repo.block(pr, true),
            MergeResult.Held.class,
            null),
        new Refusal(
            "changes requested since the test stop even a ref update a bypass would allow",
            MergeMethod.MERGE_COMMIT,
            (repo, pr) -> repo.requestChanges(pr),
            MergeResult.Held.class,
            null),
        new Refusal(
            "a ruleset requires a linear history: the merge commit is refused, not a moved target",
            MergeMethod.MERGE_COMMIT,
            (repo, pr) -> repo.rule("main", "required_linear_history", Map.of()),
            MergeResult.Refused.class,
            "This branch must not contain merge commits."),
        new Refusal(
            "a ruleset requires GitHub's merge queue: refused",
            MergeMethod.MERGE_COMMIT,
            (repo, pr) -> repo.rule("main", "merge_queue", Map.of()),
            MergeResult.Refused.class,
            "Changes must be made through the merge queue"),
        new Refusal(
            "strict required checks want the head up to date: refused with GitHub's words",
            MergeMethod.SQUASH,
            (repo, pr) -> repo.requireUpToDate("main"),
            MergeResult.Refused.class,
            "Head branch is out of date"),
        new Refusal(
            "the head was pushed to after the test: read the PR again",
            MergeMethod.SQUASH,
            (repo, pr) -> repo.push("a", files("late.txt", "!"), "pushed late"),
            MergeResult.HeadModified.class,
            null));
  }

  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.MethodSource("refusals")
  void aLandingGithubRefusesIsClassifiedByItsAnswer(Refusal row) {
    long a = pr("a", "a.txt", "1");
    String base = repo.head("main").orElseThrow();
    List<PullRequestHead> tested = heads(a);
    TestBranchResult.Built run =
        (TestBranchResult.Built)
            scm.buildTestBranch(
                ACME, "main", "trainyard-merge/main/r", null, tested, now(), MESSAGES);
    row.given().accept(repo, a);

    MergeResult result =
        scm.merge(ACME, "main", base, base, run.sha(), row.method(), tested, MESSAGES);

    assertThat(result).isInstanceOf(row.expected());
    if (row.saying() != null) {
      assertThat(((MergeResult.Refused) result).message()).contains(row.saying());
    }
    assertThat(repo.head("main")).as("nothing landed").contains(base);
  }

  @ParameterizedTest
  @EnumSource(MergeMethod.class)
  void aTargetSomeoneElseMovedIsNeverOverwritten(MergeMethod method) {
    long a = pr("a", "a.txt", "1");
    String base = repo.head("main").orElseThrow();
    TestBranchResult.Built run = tested(a);
    String moved = repo.push("main", files("hotfix.txt", "!"), "hotfix by hand");

    assertThat(scm.merge(ACME, "main", base, base, run.sha(), method, heads(a), MESSAGES))
        .isEqualTo(new MergeResult.TargetMoved(moved));
    assertThat(repo.head("main")).contains(moved);
    assertThat(repo.pull(a).orElseThrow().merged()).isFalse();
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {"main#x", "main?x=1", "%6Dain", "rel/1.0+hotfix", "caf\u00e9"})
  void aBranchNameWithUrlCharactersNamesThatBranchAndNoOther(String branch) throws Exception {
    String other = repo.push(branch, files("other.txt", branch), "on " + branch);
    String main = repo.head("main").orElseThrow();

    assertThat(scm.branchHead(ACME, branch)).contains(other);
    long a = pr("a", "a.txt", "1");
    TestBranchResult.Built run =
        (TestBranchResult.Built)
            scm.buildTestBranch(
                ACME, branch, "trainyard-merge/" + branch + "/r", null, heads(a), now(), MESSAGES);
    assertThat(run.baseSha()).isEqualTo(other);
    assertThat(
            scm.merge(
                ACME,
                branch,
                other,
                other,
                run.sha(),
                MergeMethod.MERGE_COMMIT,
                heads(a),
                MESSAGES))
        .isEqualTo(new MergeResult.Merged(run.sha()));
    assertThat(repo.head(branch)).contains(run.sha());
    assertThat(repo.head("main")).as("main is never touched").contains(main);
    scm.deleteBranch(ACME, "trainyard-merge/" + branch + "/r");
    assertThat(repo.head("trainyard-merge/" + branch + "/r")).isEmpty();
  }

  @Test
  void aRepositoryAddedBackToTheInstallationIsReadAtOnceWhenTheHostSaysSo() {
    github.uninstall(INSTALLATION);
    assertThatThrownBy(() -> scm.fetch(ACME))
        .hasMessageContaining("the GitHub App is not installed on o/r");
    github.reinstall(INSTALLATION);
    // the answer "not installed" is remembered for a while: a poll asks GitHub again only then
    assertThatThrownBy(() -> scm.fetch(ACME)).hasMessageContaining("not installed");
    // the delivery of the repository added back says the host changed: asked again now
    scm.hostChanged(ACME);
    scm.fetch(ACME);
    // a known installation is kept through deliveries: no question per push or status
    github.uninstall(INSTALLATION);
    scm.hostChanged(ACME);
    scm.fetch(ACME);
    github.reinstall(INSTALLATION);
  }

  @Test
  void anOrganizationReachesOnlyTheInstallationsBoundToIt() {
    long a = pr("a", "a.txt", "1");
    OrgRepo other = new OrgRepo("other-org", ACME.repo());
    assertThatThrownBy(() -> scm.pullRequest(other, a, "main"))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("is not bound to this organization");
    assertThatThrownBy(() -> scm.fetch(new OrgRepo("acme", new RepoRef("github.com", "o", "x"))))
        .hasMessageContaining("the GitHub App is not installed on o/x");

    bound.put(INSTALLATION, new GithubInstallation(INSTALLATION, "acme", "o", true, null));
    assertThatThrownBy(() -> scm.fetch(ACME)).hasMessageContaining("is suspended");
    bound.remove(INSTALLATION);
    assertThatThrownBy(() -> scm.fetch(ACME)).hasMessageContaining("is not bound");
    assertThat(scm.serves(ACME)).isTrue();
    assertThat(scm.serves(new OrgRepo("acme", new RepoRef("gitlab.com", "o", "r")))).isFalse();
  }

  /**
   * A conclusion GitHub refused once is written when it accepts again, though the queue changes no
   * more (a CI run: a cancelled PR's check stayed "in progress" for good, since a failed write was
   * tried again only on the queue's next change).
   */
  @Test
  void aConclusionGithubRefusedIsWrittenOnceItAcceptsWithoutAnotherChangeOfTheQueue() {
    long number = pr("a", "a.txt", "1");
    String sha = repo.headOf(repo.pull(number).orElseThrow());
    QueueKey key = QueueKey.of("acme", "github.com", "o", "r", "main");
    QueueAggregate queued =
        SubmittedQueue.of(
            key,
            now(),
            new QueueCommand.CreateQueue(QueueMode.SINGLE, 1),
            new QueueCommand.SubmitPullRequest(number, null, null),
            new QueueCommand.RecordPullRequestState(
                number,
                true,
                sha,
                "PR a",
                "a",
                "main",
                null,
                Mergeability.MERGEABLE,
                null,
                List.of()));
    try (PullRequestChecks checks =
        new PullRequestChecks(
            scm, InstantSource.system(), new PublicEvents("http://trainyard"), Duration.ZERO)) {
      checks.observe(queued);
      Awaitility.await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> checkRun(sha).map(r -> "in_progress".equals(r.status())).orElse(false));

      github.forbid("/check-runs", true);
      checks.observe(SubmittedQueue.and(queued, now(), new QueueCommand.CancelPullRequest(number)));
      Awaitility.await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  github.answered().stream()
                      .anyMatch(a -> a.startsWith("PATCH ") && a.endsWith(" 403")));
      assertThat(checkRun(sha).orElseThrow().status()).as("refused").isEqualTo("in_progress");
      github.forbid("/check-runs", false);

      Awaitility.await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () ->
                  assertThat(checkRun(sha).orElseThrow())
                      .extracting(CheckRun::status, CheckRun::conclusion)
                      .containsExactly("completed", "cancelled"));
      assertThat(repo.checkRuns()).as("the same run, not a second").hasSize(1);
      assertThat(github.answered())
          .as("refused, then written by a retry")
          .filteredOn(a -> a.startsWith("PATCH "))
          .extracting(a -> a.substring(a.lastIndexOf(' ') + 1))
          .containsSubsequence("403", "200");
    }
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource({
    "1, 2", "2, 4", "5, 32", "8, 256", "9, 300", "10, 300"
  })
  void aFailedWriteWaitsTwiceAsLongAfterEachFailureUpToFiveMinutes(int failed, long seconds) {
    assertThat(PullRequestChecks.retryWait(failed)).isEqualTo(Duration.ofSeconds(seconds));
  }

  private Optional<CheckRun> checkRun(String sha) {
    return repo.checkRuns().stream().filter(r -> r.headSha().equals(sha)).findFirst();
  }

  private long pr(String branch, String file, String content) {
    repo.push(branch, files(file, content), "change " + file);
    return repo.openPullRequest(branch, "main", "PR " + branch, "alice");
  }

  /** The run of PRs {@code numbers}, built on main as a test branch. */
  private TestBranchResult.Built tested(long... numbers) {
    return (TestBranchResult.Built)
        scm.buildTestBranch(
            ACME, "main", "trainyard-merge/main/r", null, heads(numbers), now(), MESSAGES);
  }

  private List<PullRequestHead> heads(long... numbers) {
    return java.util.Arrays.stream(numbers)
        .mapToObj(
            n -> {
              SimulatedRepository.PullRequest pr = repo.pull(n).orElseThrow();
              return new PullRequestHead(n, repo.headOf(pr), pr.title);
            })
        .toList();
  }

  private Map<String, String> tree(String sha) throws Exception {
    return repo.git().tree(ObjectId.fromString(sha));
  }

  private static Instant now() {
    return Instant.now();
  }
}
