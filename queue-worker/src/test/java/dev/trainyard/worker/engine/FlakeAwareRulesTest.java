package dev.trainyard.worker.engine;

import static dev.trainyard.worker.engine.QueueFixture.queue;
import static dev.trainyard.worker.engine.RunRulesTest.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.trainyard.common.command.CommitState;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.event.PublicEvent;
import dev.trainyard.common.event.PullRequestEvent;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.QueueState;
import dev.trainyard.worker.engine.RunRulesTest.Row;
import dev.trainyard.worker.projection.PublicEvents;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One row per rule of SCHEDULING.md "Flake-aware failures": a red run whose uploads show only
 * quarantined or excused flaky failures is run once more; a real failure, a second red, or no
 * upload at all fails as before.
 */
class FlakeAwareRulesTest {

  /** The flaky-tests service classified an upload for the head of {@code pr}'s run. */
  static QueueCommand uploaded(QueueFixture q, long pr, int failed, int unexcused) {
    return new QueueCommand.RecordTestResults(q.runOf(pr).headSha(), failed, unexcused);
  }

  static QueueFixture flakyOnly(QueueFixture q, long pr) {
    return q.apply(uploaded(q, pr, 2, 0));
  }

  static Stream<Row> rules() {
    return Stream.of(
        row(
            "an upload for a live run's head is kept with the run",
            () -> queue().queued(1).builtAll(),
            q -> uploaded(q, 1, 3, 1),
            List.of("TestResultsRecorded"),
            q -> assertThat(q.runOf(1).testFailures()).isEqualTo(TestFailures.REAL)),
        row(
            "a failure excused only by the flakes of the run's own PR is a real one",
            () -> queue().queued(1).builtAll(),
            q ->
                new QueueCommand.RecordTestResults(
                    q.runOf(1).headSha(), 1, 0, List.of(List.of(1L))),
            List.of("TestResultsRecorded"),
            q -> assertThat(q.runOf(1).testFailures()).isEqualTo(TestFailures.REAL)),
        row(
            "a command of before, listing no PRs, keeps its count",
            () -> queue().queued(1).builtAll(),
            q -> new QueueCommand.RecordTestResults(q.runOf(1).headSha(), 1, 0, null),
            List.of("TestResultsRecorded"),
            q -> assertThat(q.runOf(1).testFailures()).isEqualTo(TestFailures.FLAKY_ONLY)),
        row(
            "one excused by another PR's flakes too is excused",
            () -> queue().queued(1).builtAll(),
            q ->
                new QueueCommand.RecordTestResults(
                    q.runOf(1).headSha(), 1, 0, List.of(List.of(1L, 2L))),
            List.of("TestResultsRecorded"),
            q -> assertThat(q.runOf(1).testFailures()).isEqualTo(TestFailures.FLAKY_ONLY)),
        row(
            "an upload for a commit no live run has tells the queue its CI uploads results",
            () -> queue().queued(1).builtAll(),
            q -> new QueueCommand.RecordTestResults("not-a-head", 1, 0),
            List.of("TestResultsRecorded"),
            q -> {
              assertThat(q.runOf(1).testFailures()).isNull();
              assertThat(q.state().history().lastTestResultsAt()).isEqualTo(q.now());
            }),
        row(
            "which it writes down at most once an hour",
            () -> queue().queued(1).builtAll().apply(new QueueCommand.RecordTestResults("x", 0, 0)),
            q -> new QueueCommand.RecordTestResults("not-a-head", 1, 0),
            List.of(),
            q -> assertThat(q.runOf(1).testFailures()).isNull()),
        row(
            "red only on quarantined or flaky tests: the PR is tested once more",
            () -> flakyOnly(queue().queued(1, 2).builtAll(), 1),
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            List.of(
                "StatusReported",
                "FlakyFailureForgiven",
                "TestRunCancelled",
                "TestRunCancelled",
                "TestRunStarted",
                "TestRunStarted"),
            q -> {
              assertThat(q.stateOf(1)).isEqualTo(PrState.PENDING);
              assertThat(q.state().activeEntry(1).orElseThrow().flakyRetried()).isTrue();
              assertThat(
                      q.log().stream()
                          .filter(QueueEvent.TestRunCancelled.class::isInstance)
                          .map(e -> ((QueueEvent.TestRunCancelled) e).queuedReason()))
                  .containsExactly(
                      Reasons.TESTS_RESTARTED_FLAKY, Reasons.PREREQUISITE_MERGE_ITEM_CHANGED);
            }),
        secondFlakyRedFails(
            "a second red fails it as usual, flaky or not", () -> queue().queued(1).builtAll()),
        row(
            "one real failure among the uploads fails it as usual",
            () -> {
              QueueFixture q = flakyOnly(queue().queued(1).builtAll(), 1);
              return q.apply(uploaded(q, 1, 1, 1));
            },
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            List.of("StatusReported", "TestRunFailed"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.FAILED)),
        row(
            "a later upload without failures does not undo a real one",
            () -> {
              QueueFixture q = queue().queued(1).builtAll();
              return q.apply(uploaded(q, 1, 1, 1)).apply(uploaded(q, 1, 0, 0));
            },
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            List.of("StatusReported", "TestRunFailed"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.FAILED)),
        row(
            "no upload: red fails as usual",
            () -> queue().queued(1).builtAll(),
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            List.of("StatusReported", "TestRunFailed"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.FAILED)),
        row(
            "a batch red only on flaky tests is tested once more, not bisected",
            () ->
                flakyOnly(
                    queue()
                        .batching(2, 0)
                        .state(QueueState.PAUSED)
                        .queued(1, 2)
                        .state(QueueState.RUNNING)
                        .builtAll(),
                    1),
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            List.of("StatusReported", "FlakyFailureForgiven", "TestRunCancelled", "TestRunStarted"),
            q -> assertThat(q.prsOfRunOf(1)).containsExactly(1L, 2L)),
        row(
            "a bisection half red only on flaky tests is tested once more, where it was",
            () -> flakyOnly(halvesOfABatchOfTwo(), 1),
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            List.of(
                "StatusReported", "FlakyFailureForgiven", "TestRunBisected", "BisectionRunStarted"),
            q -> {
              TestRun again = q.runOf(1);
              assertThat(again.bisection()).isTrue();
              assertThat(again.prs()).extracting(TestedPr::number).containsExactly(1L);
              assertThat(again.baseSha()).isEqualTo("target");
              // it replaces the red half: split from the same batch, first in the bisection's order
              assertThat(again.predecessorId()).isEqualTo(q.runOf(2).predecessorId());
              assertThat(q.state().runs().bisecting())
                  .extracting(TestRun::id)
                  .containsExactly(again.id(), q.runOf(2).id());
              // the red half leaves as a chain run tested again does: cancelled, not failed
              assertThat(q.state().runs().finished())
                  .filteredOn(r -> r.bisection() && r.prs().size() == 1)
                  .singleElement()
                  .satisfies(
                      red -> {
                        assertThat(red.state()).isEqualTo(RunState.CANCELLED);
                        assertThat(red.failureReason()).isEqualTo(Reasons.TESTS_RESTARTED_FLAKY);
                      });
              // a bisection run's PRs stay pending, as a split batch's do
              assertThat(q.stateOf(1)).isEqualTo(PrState.PENDING);
              assertThat(q.state().activeEntry(1).orElseThrow().flakyRetried()).isTrue();
              assertThat(q.state().activeEntry(2).orElseThrow().flakyRetried()).isFalse();
            }),
        secondFlakyRedFails(
            "the half's second red fails its PR as usual, flaky or not",
            FlakeAwareRulesTest::halvesOfABatchOfTwo),
        row(
            "a bisection half with a real failure fails its PR as before",
            () -> {
              QueueFixture q = halvesOfABatchOfTwo();
              return q.apply(uploaded(q, 1, 2, 1));
            },
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            List.of("StatusReported", "TestRunFailed"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.FAILED)),
        row(
            "a red run waiting on runs ahead is forgiven when it reaches the head",
            () -> {
              QueueFixture q = queue().queued(1, 2).builtAll();
              return flakyOnly(q, 2).red(2).green(1);
            },
            q -> QueueFixture.landedCommand(q, 1),
            List.of("TestRunMerged", "FlakyFailureForgiven", "TestRunCancelled", "TestRunStarted"),
            q -> assertThat(q.stateOf(2)).isEqualTo(PrState.PENDING)));
  }

  /** What subscribers are told of the events {@code command} decides on {@code q}. */
  static List<PublicEvent> told(QueueFixture q, QueueCommand command) {
    Decision decision = q.decide(command);
    PublicEvents publicEvents = new PublicEvents("http://trainyard.test");
    QueueAggregate state = q.state();
    List<PublicEvent> all = new ArrayList<>();
    for (QueueEvent event : decision.events()) {
      state = EventApplier.apply(state, event);
      all.addAll(publicEvents.toPublic(state, event, q.now()));
    }
    return all;
  }

  @Test
  void subscribersHearABisectionHalfTestedAgainAsARetryNotAsAFailedBatch() {
    QueueFixture q = flakyOnly(halvesOfABatchOfTwo(), 1);
    List<PublicEvent> all = told(q, RunRulesTest.status(q, 1, CommitState.FAILURE));
    // no batch event: only PR events
    assertThat(all).allMatch(PullRequestEvent.class::isInstance);
    List<PullRequestEvent> told = all.stream().map(PullRequestEvent.class::cast).toList();
    // PR 1 is queued again for its second chance (told "testing" once its run is built); nothing
    // failed
    assertThat(told)
        .extracting(PullRequestEvent::prNumber, PullRequestEvent::action)
        .containsExactly(tuple(1L, "queued"));
    assertThat(told.get(0).queuedReason()).isEqualTo(Reasons.TESTS_RESTARTED_FLAKY);
    assertThat(told).extracting(PullRequestEvent::failureReason).containsOnlyNulls();
  }

  /**
   * PR 1's run in {@code given} goes red on flaky tests only and is tested again; that run, red on
   * flaky tests only as well, fails it.
   */
  static Row secondFlakyRedFails(String rule, Supplier<QueueFixture> given) {
    return row(
        rule,
        () -> flakyOnly(flakyOnly(given.get(), 1).red(1).builtAll(), 1),
        q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
        List.of("StatusReported", "TestRunFailed"),
        q -> assertThat(q.stateOf(1)).isEqualTo(PrState.FAILED));
  }

  /** A batch of PRs 1 and 2 went red on a real failure: each is now tested alone, built. */
  static QueueFixture halvesOfABatchOfTwo() {
    return halvesOfABatchOfTwo(queue());
  }

  /** As {@link #halvesOfABatchOfTwo()}, in {@code queue}. */
  static QueueFixture halvesOfABatchOfTwo(QueueFixture queue) {
    QueueFixture q =
        queue.batching(2, 0).state(QueueState.PAUSED).queued(1, 2).state(QueueState.RUNNING);
    q = q.builtAll();
    return q.apply(uploaded(q, 1, 1, 1)).red(1).builtAll();
  }

  /**
   * PRs 1 and 2 under test in a queue whose CI uploads test results (run 2's head had an upload
   * without failures); PR 1's run went red before its own upload.
   */
  static QueueFixture redBeforeItsUpload() {
    QueueFixture q = queue().queued(1, 2).builtAll();
    return q.apply(uploaded(q, 2, 0, 0)).red(1);
  }

  /** {@link #halvesOfABatchOfTwo}, where PR 1's half went red before its upload. */
  static QueueFixture halfRedBeforeItsUpload() {
    return halvesOfABatchOfTwo().red(1);
  }

  static Stream<Row> waits() {
    return Stream.of(
        row(
            "a bisection half red before its upload waits for it too",
            FlakeAwareRulesTest::halvesOfABatchOfTwo,
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            List.of("StatusReported", "TestRunWentRed"),
            q -> {
              assertThat(q.runOf(1).bisection()).isTrue();
              assertThat(q.runOf(1).state()).isEqualTo(RunState.RED);
              assertThat(q.stateOf(1)).isEqualTo(PrState.PENDING_FAILURE);
            }),
        row(
            "the half's upload then comes with flaky failures only: tested once more, where it was",
            FlakeAwareRulesTest::halfRedBeforeItsUpload,
            q -> uploaded(q, 1, 1, 0),
            List.of(
                "TestResultsRecorded",
                "FlakyFailureForgiven",
                "TestRunBisected",
                "BisectionRunStarted"),
            q -> {
              assertThat(q.runOf(1).bisection()).isTrue();
              assertThat(q.state().runs().bisecting())
                  .extracting(TestRun::id)
                  .containsExactly(q.runOf(1).id(), q.runOf(2).id());
              assertThat(q.stateOf(1)).isEqualTo(PrState.PENDING);
            }),
        row(
            "a half waiting for its upload holds no bisection slot: the other half starts",
            () -> halvesOfABatchOfTwo(queue().bisectionConcurrency(1)),
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            List.of("StatusReported", "TestRunWentRed", "BisectionRunStarted"),
            q -> assertThat(q.runOf(2).state()).isEqualTo(RunState.BUILDING)),
        row(
            "the half's upload with a real failure: its PR fails",
            FlakeAwareRulesTest::halfRedBeforeItsUpload,
            q -> uploaded(q, 1, 1, 1),
            List.of("TestResultsRecorded", "TestRunFailed"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.FAILED)),
        row(
            "no upload for the half within a minute: its PR fails as usual",
            () -> halfRedBeforeItsUpload().after(TestFailures.GRACE),
            q -> new QueueCommand.Tick(),
            List.of("TestRunFailed"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.FAILED)),
        row(
            "red before its upload, where CI uploads results: the run waits for it",
            () -> {
              QueueFixture q = queue().queued(1, 2).builtAll();
              return q.apply(uploaded(q, 2, 0, 0));
            },
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            List.of("StatusReported", "TestRunWentRed"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.PENDING_FAILURE)),
        row(
            "the upload then comes with flaky failures only: tested once more",
            FlakeAwareRulesTest::redBeforeItsUpload,
            q -> uploaded(q, 1, 1, 0),
            List.of(
                "TestResultsRecorded",
                "FlakyFailureForgiven",
                "TestRunCancelled",
                "TestRunCancelled",
                "TestRunStarted",
                "TestRunStarted"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.PENDING)),
        row(
            "no upload within a minute: the run fails as usual",
            () -> redBeforeItsUpload().after(TestFailures.GRACE),
            q -> new QueueCommand.Tick(),
            List.of("TestRunFailed", "TestRunCancelled", "TestRunStarted"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.FAILED)),
        row(
            "where the last upload is over a day old, red fails at once",
            () -> {
              QueueFixture q = queue().queued(1, 2).builtAll();
              return q.apply(uploaded(q, 2, 0, 0)).after(TestFailures.UPLOADS_REMEMBERED);
            },
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            List.of("StatusReported", "TestRunFailed", "TestRunCancelled", "TestRunStarted"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.FAILED)),
        row(
            "where CI never uploaded results, red fails at once",
            () -> queue().queued(1, 2).builtAll(),
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            List.of("StatusReported", "TestRunFailed", "TestRunCancelled", "TestRunStarted"),
            q -> assertThat(q.stateOf(1)).isEqualTo(PrState.FAILED)));
  }

  @Test
  void aRedRunWaitingForItsUploadAsksForATickWhenItsWaitEnds() {
    QueueFixture q = redBeforeItsUpload();

    assertThat(new QueueEngine().nextDeadline(q.state(), q.now()))
        .contains(q.now().plus(TestFailures.GRACE));
  }

  @Test
  void subscribersHearAHalfWaitingForItsUploadAsAPendingFailureOfABisection() {
    QueueFixture q = halvesOfABatchOfTwo();
    List<PublicEvent> all = told(q, RunRulesTest.status(q, 1, CommitState.FAILURE));

    assertThat(all).allMatch(PullRequestEvent.class::isInstance);
    assertThat(all.stream().map(PullRequestEvent.class::cast))
        .extracting(
            PullRequestEvent::prNumber, PullRequestEvent::action, PullRequestEvent::isBisection)
        .containsExactly(tuple(1L, "pending_failure", true));
  }

  @Test
  void aRedBisectionRunWaitingForItsUploadAsksForATickWhenItsWaitEnds() {
    QueueFixture q = halfRedBeforeItsUpload();

    assertThat(new QueueEngine().nextDeadline(q.state(), q.now()))
        .contains(q.now().plus(TestFailures.GRACE));
  }

  @Test
  void aRedRunBehindAnUndecidedOneAsksForNoTickOfItsOwn() {
    QueueFixture q = queue().queued(1, 2).builtAll();
    q.apply(uploaded(q, 1, 0, 0)).red(2);

    assertThat(q.stateOf(2)).isEqualTo(PrState.PENDING_FAILURE);
    assertThat(new QueueEngine().nextDeadline(q.state(), q.now()))
        .isPresent()
        .get()
        .isNotEqualTo(q.now().plus(TestFailures.GRACE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("waits")
  void waitsForTestResults(Row row) {
    RunRulesTest.check(row);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void rule(Row row) {
    RunRulesTest.check(row);
  }
}
