package dev.trainyard.worker.engine;

import static dev.trainyard.common.command.CommitState.FAILURE;
import static dev.trainyard.common.command.CommitState.PENDING;
import static dev.trainyard.common.command.CommitState.SUCCESS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.QueueCommand.Tick;
import dev.trainyard.common.command.RequiredCheck;
import dev.trainyard.common.queue.PrState;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which reported contexts decide a run ({@link CheckRule}): one row per case of API.md §3 {@code
 * requiredStatuses} and §6 "Which checks must pass". Each row takes a queue with PR 1 testing on an
 * engine whose plain-git settle time is 30 s, lets CI report, and says what PR 1 is then.
 */
class CheckRuleTest {
  private static final Duration SETTLE = Duration.ofSeconds(30);
  private static final RequiredCheck SLOW = RequiredCheck.named("ci/slow");
  private static final RequiredCheck LINT = RequiredCheck.named("lint");
  private static final long CI_APP = 15368;
  private static final String SUITE = "check suite (github-actions)";

  record Row(
      String rule,
      UnaryOperator<QueueFixture> given,
      UnaryOperator<QueueFixture> when,
      PrState then) {
    @Override
    public String toString() {
      return rule;
    }
  }

  static Stream<Row> rules() {
    return Stream.of(
        new Row(
            "declared: a fast check alone does not land the run",
            q -> q.declared(SLOW, LINT),
            q -> q.status(1, "lint", SUCCESS).after(Duration.ofMinutes(1)).tick(),
            PrState.TESTING),
        new Row(
            "declared: lands once every declared check succeeded",
            q -> q.declared(SLOW, LINT),
            q ->
                q.status(1, "lint", SUCCESS)
                    .after(Duration.ofMinutes(2))
                    .status(1, "ci/slow", SUCCESS),
            PrState.MERGED),
        new Row(
            "declared: a declared check that fails fails the run",
            q -> q.declared(SLOW, LINT),
            q -> q.status(1, "lint", SUCCESS).status(1, "ci/slow", FAILURE),
            PrState.FAILED),
        new Row(
            "declared: a check nobody requires may fail",
            q -> q.declared(LINT),
            q -> q.status(1, "docs", FAILURE).status(1, "lint", SUCCESS),
            PrState.MERGED),
        new Row(
            "declared: a check bound to an app counts only from that app",
            q -> q.declared(new RequiredCheck("ci/slow", CI_APP)),
            q -> q.check(1, "ci/slow", SUCCESS, 999L),
            PrState.TESTING),
        new Row(
            "declared: the bound app's report counts",
            q -> q.declared(new RequiredCheck("ci/slow", CI_APP)),
            q -> q.check(1, "ci/slow", SUCCESS, CI_APP),
            PrState.MERGED),
        new Row(
            "declared none: a pending check holds the run",
            q -> q.declared(),
            q -> q.status(1, "b", PENDING).status(1, "a", SUCCESS),
            PrState.TESTING),
        new Row(
            "declared none: lands when the pending one passes, without a settle time",
            q -> q.declared(),
            q -> q.status(1, "b", PENDING).status(1, "a", SUCCESS).status(1, "b", SUCCESS),
            PrState.MERGED),
        new Row(
            "two apps' checks of one name are two checks: one still pending holds the run",
            q -> q.declared(),
            q -> q.check(1, "build", PENDING, 1L).check(1, "build", SUCCESS, 2L),
            PrState.TESTING),
        new Row(
            "a late delivery of a check run's start does not undo its conclusion",
            q -> q.declared(SLOW, LINT),
            q ->
                q.checkRun(1, "ci/slow", SUCCESS, 55L)
                    .checkRun(1, "ci/slow", PENDING, 55L)
                    .status(1, "lint", SUCCESS),
            PrState.MERGED),
        new Row(
            "unreadable: nothing lands on a guess",
            q -> q.declared(SLOW),
            q ->
                q.undeclarable("GitHub refused")
                    .status(1, "ci/slow", SUCCESS)
                    .after(Duration.ofMinutes(5))
                    .tick(),
            PrState.TESTING),
        new Row(
            "requiredStatuses overrides what the host declares",
            q -> q.declared(SLOW).required("lint"),
            q -> q.status(1, "lint", SUCCESS),
            PrState.MERGED),
        new Row(
            "plain git: one success waits for the settle time",
            q -> q,
            q -> q.status(1, "ci/test", SUCCESS).after(Duration.ofSeconds(29)).tick(),
            PrState.TESTING),
        new Row(
            "plain git: lands once the settle time passed with nothing new",
            q -> q,
            q -> q.status(1, "ci/test", SUCCESS).after(SETTLE).tick(),
            PrState.MERGED),
        new Row(
            "plain git: a context that appears within the settle time holds the run",
            q -> q,
            q ->
                q.status(1, "ci/test", SUCCESS)
                    .after(Duration.ofSeconds(5))
                    .status(1, "ci/slow", PENDING)
                    .after(SETTLE)
                    .tick(),
            PrState.TESTING),
        new Row(
            "plain git: the settle time counts from the last conclusion",
            q -> q,
            q ->
                q.status(1, "ci/test", SUCCESS)
                    .after(Duration.ofSeconds(5))
                    .status(1, "ci/slow", SUCCESS)
                    .after(Duration.ofSeconds(29))
                    .tick(),
            PrState.TESTING),
        new Row(
            "declared none: a check suite in progress holds a run whose checks so far passed",
            q -> q.declared(),
            q ->
                q.check(1, SUITE, PENDING, CI_APP)
                    .check(1, "build", SUCCESS, CI_APP)
                    .after(SETTLE)
                    .tick(),
            PrState.TESTING),
        new Row(
            "declared none: the suite completing lands it",
            q -> q.declared(),
            q ->
                q.check(1, SUITE, PENDING, CI_APP)
                    .check(1, "build", SUCCESS, CI_APP)
                    .check(1, SUITE, SUCCESS, CI_APP),
            PrState.MERGED),
        new Row(
            "declared: a suite in progress does not hold what the required checks decide",
            q -> q.declared(LINT),
            q -> q.check(1, SUITE, PENDING, CI_APP).check(1, "lint", SUCCESS, CI_APP),
            PrState.MERGED),
        new Row(
            "plain git: a failure fails at once",
            q -> q,
            q -> q.status(1, "ci/test", FAILURE),
            PrState.FAILED),
        new Row(
            "requiredStatuses [] : every reported passes, no settle time",
            q -> q.required(),
            q -> q.status(1, "ci/test", SUCCESS),
            PrState.MERGED));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void rule(Row row) {
    QueueFixture q = row.given().apply(QueueFixture.settling(SETTLE)).queued(1).built(1);
    q = row.when().apply(q);
    if (q.state().activeEntry(1).map(e -> e.state() == PrState.TESTS_PASSED).orElse(false)) {
      q.landed(1);
    }
    assertThat(q.stateOf(1)).isEqualTo(row.then());
  }

  @Test
  void theSettleTimeIsTheQueuesNextDeadline() {
    QueueFixture q = QueueFixture.settling(SETTLE).queued(1).built(1).status(1, "ci/test", SUCCESS);
    assertThat(
            new QueueEngine(QueueEngine.DEFAULT_MAX_QUEUE_PRS, SETTLE)
                .nextDeadline(q.state(), q.now()))
        .contains(q.now().plus(SETTLE));
  }

  @Test
  void unreadableChecksKeepWaitingPrsNotReady() {
    QueueFixture q = QueueFixture.settling(SETTLE).undeclarable("GitHub refused: HTTP 403");
    q.queued(1);
    assertThat(q.stateOf(1)).isEqualTo(PrState.NOT_READY);
    assertThat(q.state().checksProblem()).isEqualTo("GitHub refused: HTTP 403");

    q.declared(SLOW);

    assertThat(q.stateOf(1)).isEqualTo(PrState.PENDING);
    assertThat(q.runOf(1).state()).as("a run starts for it").isEqualTo(RunState.BUILDING);
  }

  @Test
  void aTimedOutRunNamesTheRequiredChecksThatNeverSucceeded() {
    QueueFixture q = QueueFixture.settling(SETTLE).declared(SLOW, LINT).queued(1).built(1);
    q.status(1, "lint", SUCCESS);
    TestRun run = q.runOf(1);

    assertThat(CheckRule.missing(q.state(), run)).containsExactly(SLOW);
  }

  @Test
  void theSameDeclarationTwiceChangesNothing() {
    QueueFixture q = QueueFixture.settling(SETTLE).declared(SLOW);
    assertThat(
            q.decide(
                    new dev.trainyard.common.command.QueueCommand.RecordRequiredChecks(
                        List.of(SLOW), null))
                .events())
        .isEmpty();
    assertThat(q.decide(new Tick()).isAccepted()).isTrue();
  }
}
