package dev.trainyard.worker.engine;

import static dev.trainyard.worker.engine.QueueFixture.queue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.CommitState;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.command.QueueCommand.CancelPullRequest;
import dev.trainyard.common.command.QueueCommand.RecordMergeRefused;
import dev.trainyard.common.command.QueueCommand.RecordTestBranchConflict;
import dev.trainyard.common.command.QueueCommand.RestartTests;
import dev.trainyard.common.command.QueueCommand.SubmitPullRequest;
import dev.trainyard.common.command.QueueCommand.Tick;
import dev.trainyard.common.queue.CancellationReason;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.Priority;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.QueueState;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** One row per test-run rule of SCHEDULING.md (single mode): given a queue, when, then. */
class RunRulesTest {

  record Row(
      String rule,
      Supplier<QueueFixture> given,
      When when,
      List<String> events,
      Consumer<QueueFixture> then) {
    @Override
    public String toString() {
      return rule;
    }
  }

  /** The command of a row, which may need the given queue (a run id, a head sha). */
  interface When {
    QueueCommand of(QueueFixture given);
  }

  static Row row(
      String rule,
      Supplier<QueueFixture> given,
      When when,
      List<String> events,
      Consumer<QueueFixture> then) {
    return new Row(rule, given, when, events, then);
  }

  /** The source host shows a new head on {@code pr}. */
  static QueueCommand pushed(long pr) {
    return QueueFixture.observedCommand(pr, "sha-new", Mergeability.MERGEABLE, null);
  }

  /** The source host holds {@code pr} (it was made a draft), at the same head. */
  static QueueCommand held(long pr) {
    return QueueFixture.observedCommand(
        pr, "sha-" + pr, Mergeability.MERGEABLE, "it is a draft pull request");
  }

  static QueueCommand notMergeable(long pr) {
    return QueueFixture.observedCommand(pr, "sha-" + pr, Mergeability.NOT_MERGEABLE, null);
  }

  static QueueCommand.ReportStatus status(QueueFixture q, long pr, CommitState state) {
    return new QueueCommand.ReportStatus(q.runOf(pr).headSha(), "ci/test", state, null, null);
  }

  static Stream<Row> rules() {
    return Stream.of(
        row(
            "start: a ready PR gets a run on the target while a slot is free",
            () -> queue().submitted(1),
            q -> QueueFixture.observedCommand(1),
            List.of("PullRequestObserved", "PullRequestQueued", "TestRunStarted"),
            q -> {
              assertThat(q.runOf(1).predecessorId()).isNull();
              assertThat(q.stateOf(1)).isEqualTo(PrState.PENDING);
            }),
        row(
            "start: the next PR is built on the run ahead (speculation)",
            () -> queue().queued(1).submitted(2),
            q -> QueueFixture.observedCommand(2),
            List.of("PullRequestObserved", "PullRequestQueued", "TestRunStarted"),
            q -> {
              assertThat(q.runOf(2).predecessorId()).isEqualTo(q.runOf(1).id());
              assertThat(q.runOf(2).dependentPrs()).containsExactly(1L);
            }),
        row(
            "start: never more than concurrency runs",
            () -> queue().concurrency(2).queued(1, 2).submitted(3),
            q -> QueueFixture.observedCommand(3),
            List.of("PullRequestObserved", "PullRequestQueued"),
            q -> assertThat(q.state().runs().live()).hasSize(2)),
        row(
            "start: a paused queue starts nothing",
            () -> queue().state(QueueState.PAUSED).submitted(1),
            q -> QueueFixture.observedCommand(1),
            List.of("PullRequestObserved", "PullRequestQueued"),
            q -> assertThat(q.state().runs().live()).isEmpty()),
        row(
            "start: resuming a paused queue starts its runs",
            () -> queue().state(QueueState.PAUSED).queued(1),
            q -> new QueueCommand.UpdateQueue(QueueFixture.patch(QueueState.RUNNING, null, null)),
            List.of("QueueUpdated", "TestRunStarted"),
            q -> assertThat(q.state().runs().live()).hasSize(1)),
        row(
            "start: a draining queue keeps testing what it holds",
            () -> queue().submitted(1).state(QueueState.DRAINING),
            q -> QueueFixture.observedCommand(1),
            List.of("PullRequestObserved", "PullRequestQueued", "TestRunStarted"),
            q -> assertThat(q.state().runs().live()).hasSize(1)),
        row(
            "build: the branch exists, the PR is testing",
            () -> queue().queued(1),
            q -> QueueFixture.builtCommand(q, 1),
            List.of("TestBranchBuilt"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.TESTING)),
        row(
            "build: a status reported before the branch was recorded is claimed by it",
            () -> {
              QueueFixture q = queue().queued(1);
              String head = "head-" + q.runOf(1).id();
              return q.apply(
                  new QueueCommand.ReportStatus(head, "ci/test", CommitState.SUCCESS, null, null));
            },
            q -> QueueFixture.builtCommand(q, 1),
            List.of("TestBranchBuilt", "TestRunPassed"),
            q -> assertThat(q.state().runs().unclaimed()).isEmpty()),
        row(
            "build: a conflict at the head of the chain fails the PR",
            () -> queue().queued(1),
            q -> new RecordTestBranchConflict(q.runOf(1).id(), 1),
            List.of("TestBranchConflicted", "TestRunFailed"),
            q -> {
              assertThat(q.stateOf(1)).isEqualTo(PrState.FAILED);
              assertThat(q.runOf(1).failureReason())
                  .isEqualTo(Reasons.START_TEST_RUN_MERGE_CONFLICT);
            }),
        row(
            "build: a conflict behind a run still testing is a pending failure",
            () -> queue().queued(1, 2).built(1),
            q -> new RecordTestBranchConflict(q.runOf(2).id(), 2),
            List.of("TestBranchConflicted", "TestRunWentRed"),
            q -> assertThat(q.stateOf(2)).isEqualTo(PrState.PENDING_FAILURE)),
        row(
            "build: a run whose commit a concluded run tested takes the results CI gave it",
            () -> {
              QueueFixture q = queue().required("ci/test").queued(1).built(1);
              String cancelled = q.runOf(1).id();
              q.status(1, "ci/lint", CommitState.SUCCESS).apply(new RestartTests(1));
              return q.apply(new QueueCommand.RecordBranchDeleted(cancelled));
            },
            q ->
                new QueueCommand.RecordTestBranch(
                    q.runOf(1).id(), "target", q.state().runs().unclaimed().get(0).sha()),
            List.of("TestBranchBuilt"),
            q ->
                assertThat(q.runOf(1).statuses())
                    .extracting(RunStatus::context)
                    .containsExactly("ci/lint")),
        row(
            "build: a result for a run that is gone changes nothing",
            () -> queue().queued(1).cancelled(1),
            q -> new QueueCommand.RecordTestBranch(q.runOf(1).id(), "b", "h"),
            List.of(),
            q -> {}),
        row(
            "verdict: all statuses green → tests_passed, verified by the run",
            () -> queue().queued(1).built(1),
            q -> status(q, 1, CommitState.SUCCESS),
            List.of("StatusReported", "TestRunPassed"),
            q -> {
              assertThat(q.stateOf(1)).isEqualTo(PrState.TESTS_PASSED);
              assertThat(q.state().activeEntry(1).orElseThrow().verifiedByTestRun())
                  .isEqualTo(q.runOf(1).id());
            }),
        row(
            "verdict: a pending status is not green",
            () -> queue().queued(1).built(1),
            q -> status(q, 1, CommitState.PENDING),
            List.of("StatusReported"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.TESTING)),
        row(
            "verdict: the same report twice changes nothing",
            () -> queue().queued(1).built(1).status(1, "ci/test", CommitState.PENDING),
            q -> status(q, 1, CommitState.PENDING),
            List.of(),
            q -> {}),
        row(
            "verdict: required statuses wait for every required context",
            () -> queue().required("ci/build", "ci/test").queued(1).built(1),
            q -> status(q, 1, CommitState.SUCCESS),
            List.of("StatusReported"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.TESTING)),
        row(
            "verdict: a failing context that is not required does not fail the run",
            () ->
                queue()
                    .required("ci/test")
                    .queued(1)
                    .built(1)
                    .status(1, "lint", CommitState.FAILURE),
            q -> status(q, 1, CommitState.SUCCESS),
            List.of("StatusReported", "TestRunPassed"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.TESTS_PASSED)),
        row(
            "verdict: red at the head of the chain → failed, the PRs behind re-planned",
            () -> queue().queued(1, 2).builtAll(),
            q -> status(q, 1, CommitState.FAILURE),
            List.of("StatusReported", "TestRunFailed", "TestRunCancelled", "TestRunStarted"),
            q -> {
              assertThat(q.stateOf(1)).isEqualTo(PrState.FAILED);
              assertThat(q.stateOf(2)).isEqualTo(PrState.PENDING);
              assertThat(q.runOf(2).predecessorId()).isNull();
            }),
        row(
            "verdict: red behind a run still testing → pending_failure",
            () -> queue().queued(1, 2).builtAll(),
            q -> status(q, 2, CommitState.ERROR),
            List.of("StatusReported", "TestRunWentRed"),
            q -> assertThat(q.stateOf(2)).isEqualTo(PrState.PENDING_FAILURE)),
        row(
            "verdict: a pending failure whose runs ahead all landed fails",
            () -> queue().queued(1, 2).builtAll().red(2).green(1),
            q -> QueueFixture.landedCommand(q, 1),
            List.of("TestRunMerged", "TestRunFailed"),
            q -> assertThat(q.stateOf(2)).isEqualTo(PrState.FAILED)),
        row(
            "verdict: a pending failure whose run ahead failed is re-planned without it",
            () -> queue().queued(1, 2).builtAll().red(2),
            q -> status(q, 1, CommitState.FAILURE),
            List.of("StatusReported", "TestRunFailed", "TestRunCancelled", "TestRunStarted"),
            q -> assertThat(q.stateOf(2)).isEqualTo(PrState.PENDING)),
        row(
            "verdict: no conclusion within testingTimeoutMinutes → TEST_RUN_TIMEOUT",
            () -> queue().queued(1).built(1).after(Duration.ofMinutes(61)),
            q -> new Tick(),
            List.of("TestRunFailed"),
            q -> assertThat(q.runOf(1).failureReason()).isEqualTo(Reasons.TEST_RUN_TIMEOUT)),
        row(
            "verdict: a PR of a run that stops merging cleanly fails the run",
            () -> queue().queued(1).built(1),
            q -> QueueFixture.observedCommand(1, "sha-1", Mergeability.NOT_MERGEABLE, null),
            List.of("PullRequestObserved", "TestRunFailed"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.FAILED)),
        row(
            "merge: a passed run waits for the runs ahead",
            () -> queue().queued(1, 2).builtAll(),
            q -> status(q, 2, CommitState.SUCCESS),
            List.of("StatusReported", "TestRunPassed"),
            q -> assertThat(Effects.of(q.state())).noneMatch(e -> e instanceof Effect.LandRun)),
        row(
            "merge: the passed head lands, then the run behind lands on where it landed",
            () -> queue().queued(1, 2).builtAll().green(2).green(1),
            q -> QueueFixture.landedCommand(q, 1),
            List.of("TestRunMerged"),
            q -> {
              assertThat(q.stateOf(1)).isEqualTo(PrState.MERGED);
              Effect.LandRun land =
                  (Effect.LandRun)
                      Effects.of(q.state()).stream()
                          .filter(e -> e instanceof Effect.LandRun)
                          .findFirst()
                          .orElseThrow();
              assertThat(land.expectedTargetSha()).isEqualTo("landed-1");
              assertThat(land.runId()).isEqualTo(q.runOf(2).id());
            }),
        row(
            "merge: nothing lands while the queue is paused",
            () -> queue().queued(1).built(1).green(1),
            q -> new QueueCommand.UpdateQueue(QueueFixture.patch(QueueState.PAUSED, null, null)),
            List.of("QueueUpdated"),
            q -> assertThat(Effects.of(q.state())).isEmpty()),
        row(
            "merge: the target moved under the chain → every run is rebuilt; landings start there",
            () -> queue().queued(1, 2).builtAll().green(1),
            q -> new RecordMergeRefused(q.runOf(1).id(), "elsewhere", null),
            List.of(
                "TargetMoved",
                "TestRunCancelled",
                "TestRunCancelled",
                "TestRunStarted",
                "TestRunStarted"),
            q -> {
              assertThat(q.stateOf(1)).isEqualTo(PrState.PENDING);
              assertThat(q.state().runs().landed().targetSha()).isEqualTo("elsewhere");
            }),
        row(
            "merge: the merge method could not replay the PR → failed",
            () -> queue().queued(1).built(1).green(1),
            q -> new RecordMergeRefused(q.runOf(1).id(), null, 1L),
            List.of("TestRunFailed"),
            q -> assertThat(q.runOf(1).failureReason()).isEqualTo(Reasons.MERGE_CONFLICT)),
        row(
            "merge: the host refused the landing → failed with its words kept on the queue",
            () -> queue().queued(1).built(1).green(1),
            q ->
                new RecordMergeRefused(
                    q.runOf(1).id(), null, null, "GitHub refused to move main (HTTP 422): no"),
            List.of("LandingRefused", "TestRunFailed"),
            q -> {
              assertThat(q.runOf(1).failureReason()).isEqualTo(Reasons.MERGE_REFUSED);
              assertThat(q.state().landingProblem()).contains("HTTP 422");
              assertThat(q.state().runs().landed()).as("nothing is rebuilt on it").isNull();
            }),
        row(
            "merge: the merge method would land another tree than the tested one → failed",
            () -> queue().queued(1, 2).builtAll().green(1),
            q ->
                new RecordMergeRefused(
                    q.runOf(1).id(), null, 1L, "#1 would land a tree CI did not test: …", true),
            List.of("LandingRefused", "TestRunFailed", "TestRunCancelled", "TestRunStarted"),
            q -> {
              assertThat(q.runOf(1).failureReason()).isEqualTo(Reasons.LANDED_TREE_DIFFERS);
              assertThat(q.stateOf(1)).isEqualTo(PrState.FAILED);
              assertThat(q.state().landingProblem()).contains("tree CI did not test");
              assertThat(q.runOf(2).predecessorId()).as("rebuilt without it").isNull();
            }),
        row(
            "merge: a batch one PR of which would land another tree fails nobody; all run alone",
            () ->
                queue()
                    .batching(2, 0)
                    .state(QueueState.PAUSED)
                    .queued(1, 2)
                    .state(QueueState.RUNNING)
                    .builtAll()
                    .green(1),
            q ->
                new RecordMergeRefused(
                    q.runOf(1).id(), null, 2L, "#2 would land a tree CI did not test: …", true),
            List.of("LandingRefused", "TestRunCleared", "TestRunStarted", "TestRunStarted"),
            q -> {
              assertThat(q.stateOf(1)).isEqualTo(PrState.PENDING);
              assertThat(q.stateOf(2)).isEqualTo(PrState.PENDING);
              assertThat(q.prsOfRunOf(1)).containsExactly(1L);
              assertThat(q.prsOfRunOf(2)).containsExactly(2L);
              assertThat(q.state().activeEntry(2).orElseThrow().isolated()).isTrue();
            }),
        row(
            "merge: the host merged a batch's first PR, then refused the next → merged; the rest"
                + " run alone",
            () ->
                queue()
                    .batching(2, 0)
                    .state(QueueState.PAUSED)
                    .queued(1, 2, 3)
                    .state(QueueState.RUNNING)
                    .builtAll()
                    .green(1),
            q ->
                new QueueCommand.RecordPartialMerge(
                    q.runOf(1).id(),
                    "partly-landed",
                    List.of(1L),
                    2L,
                    "GitHub refused to merge #2 (HTTP 405): not mergeable"),
            List.of(
                "TestRunCancelled",
                "LandingRefused",
                "TestRunPartlyMerged",
                "TestRunStarted",
                "TestRunStarted"),
            q -> {
              assertThat(q.stateOf(1)).isEqualTo(PrState.MERGED);
              assertThat(q.stateOf(2)).isEqualTo(PrState.PENDING);
              assertThat(q.state().activeEntry(2).orElseThrow().isolated()).isTrue();
              assertThat(q.prsOfRunOf(2)).containsExactly(2L);
              assertThat(q.runOf(2).predecessorId()).as("built on the target").isNull();
              assertThat(q.state().runs().landed().targetSha()).isEqualTo("partly-landed");
              assertThat(q.state().landingProblem())
                  .contains("merged [#1] of the batch, then refused #2: GitHub refused");
            }),
        row(
            "merge: the host holds a PR of the passed run (changes requested) → nothing lands;"
                + " it waits not ready, the others are tested again",
            () ->
                queue()
                    .batching(2, 0)
                    .state(QueueState.PAUSED)
                    .queued(1, 2, 3)
                    .state(QueueState.RUNNING)
                    .builtAll()
                    .green(1),
            q ->
                new QueueCommand.RecordLandingHeld(
                    q.runOf(1).id(), 2, "a review requested changes"),
            List.of(
                "LandingRefused",
                "PullRequestObserved",
                "TestRunCancelled",
                "TestRunCancelled",
                "PullRequestNotReady",
                "TestRunStarted"),
            q -> {
              assertThat(q.stateOf(2)).isEqualTo(PrState.NOT_READY);
              assertThat(q.state().activeEntry(2).orElseThrow().pr().hold())
                  .isEqualTo("a review requested changes");
              assertThat(q.stateOf(1)).isEqualTo(PrState.PENDING);
              assertThat(q.prsOfRunOf(1)).containsExactly(1L, 3L);
              assertThat(q.state().landingProblem()).contains("GitHub holds #2 at landing");
            }),
        row(
            "merge: what the host merged is recorded even when the queue was paused meanwhile",
            () ->
                queue()
                    .batching(2, 0)
                    .state(QueueState.PAUSED)
                    .queued(1, 2)
                    .state(QueueState.RUNNING)
                    .builtAll()
                    .green(1)
                    .state(QueueState.PAUSED),
            q ->
                new QueueCommand.RecordPartialMerge(
                    q.runOf(1).id(), "partly-landed", List.of(1L), 2L, "refused"),
            List.of("LandingRefused", "TestRunPartlyMerged"),
            q -> {
              assertThat(q.stateOf(1)).isEqualTo(PrState.MERGED);
              assertThat(q.stateOf(2)).isEqualTo(PrState.PENDING);
            }),
        row(
            "merge: a second result for a batch that landed in part changes nothing",
            () -> {
              QueueFixture q =
                  queue()
                      .batching(2, 0)
                      .state(QueueState.PAUSED)
                      .queued(1, 2)
                      .state(QueueState.RUNNING)
                      .builtAll()
                      .green(1);
              q.apply(
                  new QueueCommand.RecordPartialMerge(
                      q.runOf(1).id(), "partly-landed", List.of(1L), 2L, "refused"));
              return q;
            },
            q ->
                new QueueCommand.RecordPartialMerge(
                    q.state().concluded().get(0).testRunId(),
                    "partly-landed",
                    List.of(1L),
                    2L,
                    "refused"),
            List.of(),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.MERGED)),
        row(
            "dependsOn: a dependency added to a PR being landed does not stop its landing",
            () -> queue().concurrency(1).queued(1).built(1).green(1).submitted(3),
            q -> new SubmitPullRequest(1, null, null, null, List.of(3L)),
            List.of("PullRequestResubmitted"),
            q -> assertThat(q.runOf(1).state()).isEqualTo(RunState.PASSED)),
        row(
            "merge: a later landing clears the host's last refusal",
            () -> {
              QueueFixture q = queue().queued(1, 2).builtAll().green(1);
              q.apply(new RecordMergeRefused(q.runOf(1).id(), null, null, "refused"));
              return q.built(2).green(2);
            },
            q -> QueueFixture.landedCommand(q, 2),
            List.of("TestRunMerged"),
            q -> assertThat(q.state().landingProblem()).isNull()),
        row(
            "merge: a second result for a landed run changes nothing",
            () -> queue().queued(1).built(1).green(1).landed(1),
            q -> QueueFixture.landedCommand(q, 1),
            List.of(),
            q -> {}),
        row(
            "cancel: a PR under test leaves; its run stops and the runs behind are rebuilt",
            () -> queue().queued(1, 2).builtAll(),
            q -> new CancelPullRequest(1),
            List.of(
                "PullRequestCancelled", "TestRunCancelled", "TestRunCancelled", "TestRunStarted"),
            q -> {
              assertThat(q.stateOf(1)).isEqualTo(PrState.CANCELLED);
              assertThat(q.runOf(2).predecessorId()).isNull();
            }),
        row(
            "landing: a PR whose run passed at the head ignores a push until it has landed",
            () -> queue().queued(1).built(1).green(1),
            q -> pushed(1),
            List.of(),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.TESTS_PASSED)),
        row(
            "cancel: a passed PR still waiting behind a run under test can leave",
            () -> queue().queued(1, 2).builtAll().green(2),
            q -> new CancelPullRequest(2),
            List.of("PullRequestCancelled", "TestRunCancelled"),
            q -> assertThat(q.stateOf(2)).isEqualTo(PrState.CANCELLED)),
        row(
            "restart: a PR under test gets a new run id",
            () -> queue().queued(1).built(1),
            q -> new RestartTests(1),
            List.of("TestRunCancelled", "TestRunStarted"),
            q -> assertThat(q.state().runs().finished()).hasSize(1)),
        row(
            "restart: the runs behind a restarted run are rebuilt after it",
            () -> queue().queued(1, 2).builtAll(),
            q -> new RestartTests(1),
            List.of("TestRunCancelled", "TestRunCancelled", "TestRunStarted", "TestRunStarted"),
            q -> assertThat(q.runOf(2).predecessorId()).isEqualTo(q.runOf(1).id())),
        row(
            "pushed: a PR pushed to while testing is cancelled (PR_PUSHED_TO)",
            () -> queue().queued(1).built(1),
            q -> pushed(1),
            List.of("PullRequestCancelled", "TestRunCancelled"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.CANCELLED)),
        row(
            "pushed: a PR pushed to while it waits for a slot is cancelled (PR_PUSHED_TO)",
            () -> queue().concurrency(1).queued(1, 2),
            q -> pushed(2),
            List.of("PullRequestCancelled"),
            q -> {
              assertThat(q.stateOf(2)).isEqualTo(PrState.CANCELLED);
              assertThat(q.cancellationOf(2)).isEqualTo(CancellationReason.PR_PUSHED_TO);
            }),
        row(
            "pushed: a PR pushed to while not ready is cancelled (PR_PUSHED_TO)",
            () -> queue().submitted(1).apply(notMergeable(1)),
            q -> pushed(1),
            List.of("PullRequestCancelled"),
            q -> assertThat(q.cancellationOf(1)).isEqualTo(CancellationReason.PR_PUSHED_TO)),
        row(
            "pushed: a head other than the one the submitter saw cancels it at the first read",
            () -> queue().apply(new SubmitPullRequest(1, null, null, "sha-seen")),
            q -> QueueFixture.observedCommand(1),
            List.of("PullRequestCancelled"),
            q -> assertThat(q.cancellationOf(1)).isEqualTo(CancellationReason.PR_PUSHED_TO)),
        row(
            "pushed: the head the submitter saw is tested",
            () -> queue().apply(new SubmitPullRequest(1, null, null, "sha-1")),
            q -> QueueFixture.observedCommand(1),
            List.of("PullRequestObserved", "PullRequestQueued", "TestRunStarted"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.PENDING)),
        row(
            "held: a PR the host holds (a draft) waits, not ready",
            () -> queue().submitted(1),
            q -> held(1),
            List.of("PullRequestObserved"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.NOT_READY)),
        row(
            "held: a PR held while it tests stops its run and waits, instead of failing",
            () -> queue().queued(1).built(1),
            q -> held(1),
            List.of("PullRequestObserved", "TestRunCancelled", "PullRequestNotReady"),
            q -> {
              assertThat(q.stateOf(1)).isEqualTo(PrState.NOT_READY);
              assertThat(q.state().runs().live()).isEmpty();
            }),
        row(
            "mergeability: GitHub computing it again keeps the last answer for the same head",
            () -> queue().concurrency(1).queued(1, 2),
            q -> QueueFixture.observedCommand(2, "sha-2", Mergeability.IN_PROGRESS, null),
            List.of(),
            q -> assertThat(q.stateOf(2)).isEqualTo(PrState.PENDING)),
        row(
            "mergeability: a new head's is not known until GitHub computed it",
            () -> queue().submitted(1),
            q -> QueueFixture.observedCommand(1, "sha-1", Mergeability.IN_PROGRESS, null),
            List.of("PullRequestObserved"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.NOT_READY)),
        row(
            "urgent: skips the line, interrupting the runs that have not passed",
            () -> queue().queued(1, 2).builtAll().green(1).submitted(3, Priority.URGENT),
            q -> QueueFixture.observedCommand(3),
            List.of(
                "PullRequestObserved",
                "PullRequestQueued",
                "TestRunCancelled",
                "TestRunStarted",
                "TestRunStarted"),
            q -> {
              assertThat(q.runOf(3).predecessorId()).isEqualTo(q.runOf(1).id());
              assertThat(q.runOf(2).predecessorId()).isEqualTo(q.runOf(3).id());
            }),
        row(
            "urgent: a PR depending on one under test is built on that run, which stays",
            () ->
                queue()
                    .queued(1, 2)
                    .builtAll()
                    .apply(new SubmitPullRequest(3, Priority.URGENT, null, null, List.of(2L))),
            q -> QueueFixture.observedCommand(3),
            List.of("PullRequestObserved", "PullRequestQueued", "TestRunStarted"),
            q -> {
              assertThat(q.runOf(2).state()).isEqualTo(RunState.TESTING);
              assertThat(q.runOf(3).predecessorId()).isEqualTo(q.runOf(2).id());
            }),
        row(
            "urgent: runs behind the one holding its dependency are interrupted",
            () ->
                queue()
                    .queued(1, 2, 4)
                    .builtAll()
                    .apply(new SubmitPullRequest(3, Priority.URGENT, null, null, List.of(1L))),
            q -> QueueFixture.observedCommand(3),
            List.of(
                "PullRequestObserved",
                "PullRequestQueued",
                "TestRunCancelled",
                "TestRunCancelled",
                "TestRunStarted",
                "TestRunStarted",
                "TestRunStarted"),
            q -> {
              assertThat(q.runOf(3).predecessorId()).isEqualTo(q.runOf(1).id());
              assertThat(q.runOf(2).predecessorId()).isEqualTo(q.runOf(3).id());
              assertThat(q.runOf(4).predecessorId()).isEqualTo(q.runOf(2).id());
            }),
        row(
            "dependsOn: a dependency added while the PR tests stops its run; it waits for it",
            () -> queue().concurrency(1).queued(1).built(1).queued(3),
            q -> new SubmitPullRequest(1, null, null, null, List.of(3L)),
            List.of("PullRequestResubmitted", "TestRunCancelled", "TestRunStarted"),
            q -> {
              assertThat(q.runOf(3).predecessorId()).isNull();
              assertThat(q.stateOf(1)).isEqualTo(PrState.PENDING);
              assertThat(q.state().activeEntry(1).orElseThrow().testRunId()).isNull();
            }),
        row(
            "dependsOn: the PR starts on its dependency's run once a slot frees",
            () ->
                queue()
                    .concurrency(2)
                    .queued(1)
                    .built(1)
                    .queued(3)
                    .apply(new SubmitPullRequest(1, null, null, null, List.of(3L))),
            q -> QueueFixture.builtCommand(q, 3),
            List.of("TestBranchBuilt"),
            q -> assertThat(q.runOf(1).predecessorId()).isEqualTo(q.runOf(3).id())),
        row(
            "priority: a high PR does not interrupt runs, it only goes first among the waiting",
            () -> queue().concurrency(1).queued(1, 2).submitted(3, Priority.HIGH),
            q -> QueueFixture.observedCommand(3),
            List.of("PullRequestObserved", "PullRequestQueued"),
            q -> assertThat(q.state().runs().live()).hasSize(1)),
        row(
            "mode: a mode change with runs in flight waits in switching_modes",
            () -> queue().queued(1),
            q -> new QueueCommand.UpdateQueue(QueueFixture.patch(null, QueueMode.PARALLEL, null)),
            List.of("QueueUpdated", "ModeSwitchRequested"),
            q -> {
              assertThat(q.state().state()).isEqualTo(QueueState.SWITCHING_MODES);
              assertThat(q.state().settings().mode()).isEqualTo(QueueMode.SINGLE);
            }),
        row(
            "mode: once the runs are done the new mode applies and the queue runs",
            () ->
                queue()
                    .queued(1)
                    .apply(
                        new QueueCommand.UpdateQueue(
                            QueueFixture.patch(null, QueueMode.PARALLEL, null))),
            q -> new CancelPullRequest(1),
            List.of("PullRequestCancelled", "TestRunCancelled", "ModeSwitched"),
            q -> {
              assertThat(q.state().state()).isEqualTo(QueueState.RUNNING);
              assertThat(q.state().settings().mode()).isEqualTo(QueueMode.PARALLEL);
            }),
        row(
            "mode: while switching nothing new starts",
            () ->
                queue()
                    .queued(1)
                    .apply(
                        new QueueCommand.UpdateQueue(
                            QueueFixture.patch(null, QueueMode.PARALLEL, null)))
                    .submitted(2),
            q -> QueueFixture.observedCommand(2),
            List.of("PullRequestObserved", "PullRequestQueued"),
            q -> assertThat(q.state().runs().live()).hasSize(1)),
        row(
            "delete: a concluded run's branch is deleted, then forgotten",
            () -> queue().queued(1).cancelled(1),
            q -> new QueueCommand.RecordBranchDeleted(q.runOf(1).id()),
            List.of("TestBranchDeleted"),
            q -> assertThat(q.state().runs().finished()).isEmpty()),
        row(
            "submit: a new submission of a PR already testing keeps its run",
            () -> queue().queued(1).built(1),
            q -> new SubmitPullRequest(1, Priority.HIGH, null),
            List.of("PullRequestResubmitted"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.TESTING)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("landingRejections")
  void aPullRequestBeingLandedCannotBeCancelledOrRestarted(QueueCommand command) {
    QueueFixture given = queue().queued(1).built(1).green(1);

    Decision decision = given.decide(command);

    assertThat(decision.rejection().type())
        .isEqualTo(dev.trainyard.common.command.RejectionType.CONFLICT);
    assertThat(decision.rejection().message())
        .isEqualTo("pull request 1 passed its tests and is being merged");
    assertThat(
            queue()
                .queued(1)
                .built(1)
                .green(1)
                .state(QueueState.PAUSED)
                .decide(command)
                .isAccepted())
        .as("while paused nothing lands, so it may still leave")
        .isTrue();
  }

  /**
   * A test branch whose builder did not find every PR head of its run in it is not recorded (a
   * green run on it would land a PR it never tested); with every head in it, it is, as is a result
   * of a builder that reports no heads (one from before builders checked them).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("containedHeads")
  void aTestBranchIsRecordedOnlyWithEveryPullRequestHeadInIt(
      String name, List<String> contained, boolean recorded) {
    QueueFixture given = queue().queued(1);
    TestRun run = given.runOf(1);

    Decision decision =
        given.decide(
            new QueueCommand.RecordTestBranch(run.id(), "target", "built", null, contained));

    assertThat(decision.isAccepted()).as(name).isEqualTo(recorded);
    if (!recorded) {
      assertThat(decision.rejection().message()).contains("sha-1").contains("PR #1");
    }
  }

  static Stream<Arguments> containedHeads() {
    return Stream.of(
        Arguments.of("every head", List.of("sha-1"), true),
        Arguments.of("a head missing", List.of("sha-9"), false),
        Arguments.of("no heads reported", null, true));
  }

  static Stream<QueueCommand> landingRejections() {
    return Stream.of(new CancelPullRequest(1), new RestartTests(1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void rule(Row row) {
    check(row);
  }

  /** Given, when, then: the command's events are exactly the row's, and its checks hold after. */
  static void check(Row row) {
    QueueFixture given = row.given().get();
    QueueCommand command = row.when().of(given);

    Decision decision = given.decide(command);

    assertThat(decision.rejection()).isNull();
    assertThat(QueueFixture.eventNames(decision)).isEqualTo(row.events());
    given.applyDecision(decision);
    row.then().accept(given);
  }
}
