package dev.trainyard.worker.engine;

import static dev.trainyard.worker.engine.QueueFixture.queue;
import static dev.trainyard.worker.engine.RunRulesTest.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.CommitState;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.QueueState;
import dev.trainyard.worker.engine.RunRulesTest.Row;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One row per throughput rule of SCHEDULING.md: batching, bisection of failed batches, pending
 * failure depth and optimistic merge.
 */
class ThroughputRulesTest {

  /** Four PRs queued while paused, then released as one batch of four under test. */
  static QueueFixture batchOfFour() {
    return queue()
        .batching(4, 0)
        .state(QueueState.PAUSED)
        .queued(1, 2, 3, 4)
        .state(QueueState.RUNNING)
        .builtAll();
  }

  /** A batch of two that went red and was split: each PR in a bisection run under test. */
  static QueueFixture bisectedPair() {
    return pair(queue().batching(2, 0));
  }

  /** PRs 1 and 2 batched in {@code q}, red, and split; the halves that start are built. */
  private static QueueFixture pair(QueueFixture q) {
    return q.state(QueueState.PAUSED)
        .queued(1, 2)
        .state(QueueState.RUNNING)
        .builtAll()
        .red(1)
        .builtAll();
  }

  /** {@link #bisectedPair} in a queue skipping redundant tests: the second half waits. */
  static QueueFixture skippingBisectedPair() {
    return pair(queue().batching(2, 0).skippingRedundantTests());
  }

  static Stream<Row> rules() {
    return Stream.of(
        row(
            "batch: ready PRs share one run, up to batchingMinSize",
            () -> queue().batching(3, 10).queued(1, 2).submitted(3),
            q -> QueueFixture.observedCommand(3),
            List.of("PullRequestObserved", "PullRequestQueued", "TestRunStarted"),
            q -> assertThat(q.prsOfRunOf(1)).containsExactly(1L, 2L, 3L)),
        row(
            "batch: a partial batch waits batchingMaxWaitTimeMinutes, then starts as it is",
            () -> queue().batching(4, 10).queued(1, 2).after(Duration.ofMinutes(10)),
            q -> new QueueCommand.Tick(),
            List.of("TestRunStarted"),
            q -> assertThat(q.prsOfRunOf(2)).containsExactly(1L, 2L)),
        row(
            "batch: a noBatch PR runs alone and closes the batch ahead of it",
            () ->
                queue().batching(4, 0).state(QueueState.PAUSED).queued(1).queuedAlone(2).queued(3),
            q -> new QueueCommand.UpdateQueue(QueueFixture.patch(QueueState.RUNNING, null, null)),
            List.of("QueueUpdated", "TestRunStarted", "TestRunStarted", "TestRunStarted"),
            q -> {
              assertThat(q.prsOfRunOf(1)).containsExactly(1L);
              assertThat(q.prsOfRunOf(2)).containsExactly(2L);
              assertThat(q.prsOfRunOf(3)).containsExactly(3L);
            }),
        row(
            "speculation: a passed run waiting to land frees its CI slot for a run behind",
            () -> queue().concurrency(2).queued(1, 2, 3, 4, 5).builtAll(),
            q -> RunRulesTest.status(q, 1, CommitState.SUCCESS),
            List.of("StatusReported", "TestRunPassed", "TestRunStarted"),
            q -> assertThat(q.state().runs().chain()).hasSize(3)),
        row(
            "speculation: a lane holds at most 2 × concurrency PRs once it has concurrency runs",
            () ->
                queue()
                    .concurrency(2)
                    .batching(4, 0)
                    .state(QueueState.PAUSED)
                    .queued(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
                    .state(QueueState.RUNNING)
                    .builtAll(),
            q -> RunRulesTest.status(q, 1, CommitState.SUCCESS),
            List.of("StatusReported", "TestRunPassed"),
            q -> assertThat(q.state().runs().chain()).hasSize(2)),
        row(
            "bisect: a red batch is split in halves; its PRs queue again, none failed",
            ThroughputRulesTest::batchOfFour,
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            List.of(
                "StatusReported", "TestRunBisected", "BisectionRunStarted", "BisectionRunStarted"),
            q -> {
              assertThat(List.of(1L, 2L, 3L, 4L)).allMatch(pr -> q.stateOf(pr) == PrState.PENDING);
              assertThat(q.runOf(1).bisection()).isTrue();
              assertThat(q.prsOfRunOf(1)).containsExactly(1L, 2L);
              assertThat(q.prsOfRunOf(3)).containsExactly(3L, 4L);
              assertThat(q.runOf(3).baseSha()).isEqualTo("target");
            }),
        row(
            "bisect: no more than bisectionConcurrency bisection runs at once",
            () -> batchOfFour().bisectionConcurrency(1),
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            List.of("StatusReported", "TestRunBisected", "BisectionRunStarted"),
            q -> assertThat(q.runOf(3).state()).isEqualTo(RunState.WAITING)),
        row(
            "green half: nothing landed since the split and no chain run: it lands as tested",
            () -> batchOfFour().red(1).builtAll(),
            q -> RunRulesTest.status(q, 1, CommitState.SUCCESS),
            List.of("StatusReported", "BisectionHalfPassed"),
            q -> {
              TestRun half = q.runOf(1);
              assertThat(half.bisection()).isFalse();
              assertThat(half.state()).isEqualTo(RunState.PASSED);
              assertThat(half.baseSha()).isEqualTo("target");
              assertThat(q.stateOf(1)).isEqualTo(PrState.TESTS_PASSED);
              assertThat(q.stateOf(3)).isEqualTo(PrState.TESTING);
              Effect.LandRun land = landing(q);
              assertThat(land.runId()).isEqualTo(half.id());
              assertThat(land.expectedTargetSha()).isEqualTo("target");
              assertThat(land.builtOnSha()).isEqualTo("target");
              assertThat(land.testedSha()).isEqualTo(half.headSha());
            }),
        row(
            "green half: the next run is built on the landing half, not on the target",
            () -> batchOfFour().red(1).builtAll().green(1).queued(5),
            q -> QueueFixture.builtCommand(q, 5),
            List.of("TestBranchBuilt"),
            q -> {
              assertThat(q.runOf(5).predecessorId()).isEqualTo(q.runOf(1).id());
              assertThat(q.runOf(5).baseSha()).isEqualTo(q.runOf(1).headSha());
              assertThat(q.runOf(5).dependentPrs()).containsExactly(1L, 2L);
            }),
        row(
            "green half: once it landed, the rest of its batch can no longer land as tested",
            () -> batchOfFour().red(1).builtAll().green(1).landed(1).red(3).builtAll(),
            q -> RunRulesTest.status(q, 3, CommitState.SUCCESS),
            List.of("StatusReported", "TestRunCleared", "TestRunStarted"),
            q -> {
              assertThat(q.state().activeEntry(1)).isEmpty();
              assertThat(q.runOf(3).bisection()).isFalse();
              assertThat(q.runOf(3).predecessorId()).isNull();
              assertThat(q.runOf(4).bisection()).isTrue();
            }),
        row(
            "green half: a chain run waits, so the half only clears its PRs",
            () ->
                queue()
                    .batching(4, 0)
                    .state(QueueState.PAUSED)
                    .queued(1, 2, 3, 4, 5, 6)
                    .state(QueueState.RUNNING)
                    .builtAll()
                    .red(1)
                    .builtAll(),
            q -> RunRulesTest.status(q, 1, CommitState.SUCCESS),
            List.of("StatusReported", "TestRunCleared", "TestRunStarted"),
            q -> {
              assertThat(q.runOf(1).bisection()).isFalse();
              assertThat(q.prsOfRunOf(1)).containsExactly(1L, 2L);
              assertThat(q.prsOfRunOf(5)).containsExactly(5L, 6L);
              assertThat(q.runOf(1).predecessorId()).isEqualTo(q.runOf(5).id());
            }),
        row(
            "bisect: a waiting half whose PR is cancelled is cancelled; its other PR queues again",
            () -> batchOfFour().bisectionConcurrency(1).red(1),
            q -> new QueueCommand.CancelPullRequest(3),
            List.of("PullRequestCancelled", "TestRunCancelled", "TestRunStarted"),
            q -> {
              assertThat(q.stateOf(3)).isEqualTo(PrState.CANCELLED);
              assertThat(q.runOf(4).bisection()).isFalse();
              assertThat(q.prsOfRunOf(4)).containsExactly(4L);
            }),
        row(
            "bisect: a red half of one PR fails that PR alone",
            ThroughputRulesTest::bisectedPair,
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            List.of("StatusReported", "TestRunFailed"),
            q -> {
              assertThat(q.stateOf(1)).isEqualTo(PrState.FAILED);
              assertThat(q.stateOf(2)).isEqualTo(PrState.TESTING);
            }),
        row(
            "bisect: a red half of several PRs is split again",
            () -> batchOfFour().red(1).builtAll(),
            q -> RunRulesTest.status(q, 3, CommitState.FAILURE),
            List.of(
                "StatusReported", "TestRunBisected", "BisectionRunStarted", "BisectionRunStarted"),
            q -> {
              assertThat(q.prsOfRunOf(3)).containsExactly(3L);
              assertThat(q.prsOfRunOf(4)).containsExactly(4L);
            }),
        row(
            "bisect: skipping redundant tests, a green half never fails a single PR untested",
            () -> bisectedPair().skippingRedundantTests(),
            q -> RunRulesTest.status(q, 1, CommitState.SUCCESS),
            List.of("StatusReported", "BisectionHalfPassed"),
            q -> {
              assertThat(q.stateOf(2)).isEqualTo(PrState.TESTING);
              assertThat(q.stateOf(1)).isEqualTo(PrState.TESTS_PASSED);
              assertThat(q.prsOfRunOf(1)).containsExactly(1L);
            }),
        row(
            "bisect: skipping redundant tests, the single PR left runs after the green half",
            ThroughputRulesTest::skippingBisectedPair,
            q -> RunRulesTest.status(q, 1, CommitState.SUCCESS),
            List.of("StatusReported", "BisectionHalfPassed", "BisectionRunStarted"),
            q -> assertThat(q.runOf(2).state()).isEqualTo(RunState.BUILDING)),
        row(
            "bisect: skipping redundant tests, a red run of the PR alone fails it",
            () -> skippingBisectedPair().green(1).landed(1).builtAll(),
            q -> RunRulesTest.status(q, 2, CommitState.FAILURE),
            List.of("StatusReported", "TestRunFailed"),
            q -> assertThat(q.stateOf(2)).isEqualTo(PrState.FAILED)),
        row(
            "bisect: skipping redundant tests, a green half splits the other half without a run",
            () -> batchOfFour().skippingRedundantTests().red(1).builtAll(),
            q -> RunRulesTest.status(q, 1, CommitState.SUCCESS),
            List.of(
                "StatusReported", "BisectionHalfPassed", "TestRunBisected", "BisectionRunStarted"),
            q -> {
              assertThat(q.stateOf(3)).isEqualTo(PrState.PENDING);
              assertThat(q.stateOf(4)).isEqualTo(PrState.PENDING);
              assertThat(q.state().runs().bisecting()).hasSize(2);
            }),
        row(
            "bisect: a dependency added to a PR of a half stops the half; the PR waits for it",
            () -> bisectedPair().queued(3),
            q -> new QueueCommand.SubmitPullRequest(2, null, null, null, List.of(3L)),
            List.of("PullRequestResubmitted", "TestRunCancelled", "TestRunStarted"),
            q -> assertThat(q.runOf(2).predecessorId()).isEqualTo(q.runOf(3).id())),
        row(
            "bisect: both halves green leave the failure unexplained; the second is isolated",
            () -> bisectedPair().green(1).after(Duration.ofMinutes(1)),
            q -> RunRulesTest.status(q, 2, CommitState.SUCCESS),
            List.of("StatusReported", "TestRunCleared", "TestRunStarted"),
            q -> {
              assertThat(q.state().activeEntry(2).orElseThrow().isolated()).isTrue();
              assertThat(q.state().activeEntry(1).orElseThrow().isolated()).isFalse();
              assertThat(q.prsOfRunOf(2)).containsExactly(2L);
            }),
        row(
            "pending failure depth: a red head waits for the run behind it",
            () -> queue().antiFlake(1, false).queued(1, 2).builtAll(),
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            List.of("StatusReported", "TestRunWentRed"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.PENDING_FAILURE)),
        row(
            "pending failure depth: once the runs behind finished, the red head fails",
            () -> queue().antiFlake(1, false).queued(1, 2).builtAll().red(1),
            q -> RunRulesTest.status(q, 2, CommitState.SUCCESS),
            List.of(
                "StatusReported",
                "TestRunPassed",
                "TestRunFailed",
                "TestRunCancelled",
                "TestRunStarted"),
            q -> {
              assertThat(q.stateOf(1)).isEqualTo(PrState.FAILED);
              assertThat(q.stateOf(2)).isEqualTo(PrState.PENDING);
            }),
        row(
            "optimistic merge: a green run behind a red head vindicates it",
            () -> queue().antiFlake(1, true).queued(1, 2).builtAll().red(1),
            q -> RunRulesTest.status(q, 2, CommitState.SUCCESS),
            List.of("StatusReported", "TestRunPassed", "TestRunRescued"),
            q -> {
              assertThat(q.stateOf(1)).isEqualTo(PrState.TESTS_PASSED);
              assertThat(q.state().activeEntry(1).orElseThrow().verifiedByTestRun())
                  .isEqualTo(q.runOf(2).id());
            }),
        row(
            "optimistic merge: a run behind that passed first vindicates a head that goes red later",
            () -> queue().antiFlake(0, true).queued(1, 2).builtAll().green(2),
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            List.of("StatusReported", "TestRunWentRed", "TestRunRescued"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.TESTS_PASSED)),
        row(
            "optimistic merge: without pending failure depth a red head fails before any rescue",
            () -> queue().antiFlake(0, true).queued(1, 2).builtAll(),
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            List.of("StatusReported", "TestRunFailed", "TestRunCancelled", "TestRunStarted"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.FAILED)),
        row(
            "optimistic merge: a pending failure is vindicated once every run ahead passed",
            () -> queue().antiFlake(0, true).queued(1, 2, 3).builtAll().red(2).green(3),
            q -> RunRulesTest.status(q, 1, CommitState.SUCCESS),
            List.of("StatusReported", "TestRunPassed", "TestRunRescued"),
            q -> assertThat(q.stateOf(2)).isEqualTo(PrState.TESTS_PASSED)));
  }

  /** The landing the state asks the shell for. */
  private static Effect.LandRun landing(QueueFixture q) {
    return Effects.of(q.state()).stream()
        .filter(Effect.LandRun.class::isInstance)
        .map(Effect.LandRun.class::cast)
        .findFirst()
        .orElseThrow();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void rule(Row row) {
    RunRulesTest.check(row);
  }

  @Test
  void aPartialBatchAsksForATickWhenItsWaitEnds() {
    QueueFixture q = queue().batching(4, 10).queued(1, 2);

    assertThat(new QueueEngine().nextDeadline(q.state(), q.now()))
        .contains(QueueFixture.T0.plus(Duration.ofMinutes(10)));
  }

  @Test
  void aRescuedRunLandsFirstThenTheRunThatVindicatedIt() {
    QueueFixture q = queue().antiFlake(1, true).queued(1, 2).builtAll().red(1).green(2);

    assertThat(Effects.of(q.state()))
        .filteredOn(e -> e instanceof Effect.LandRun)
        .extracting(Effect::runId)
        .containsExactly(q.runOf(1).id());
    q.landed(1);
    assertThat(Effects.of(q.state()))
        .filteredOn(e -> e instanceof Effect.LandRun)
        .extracting(Effect::runId)
        .containsExactly(q.runOf(2).id());
  }
}
