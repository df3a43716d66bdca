package dev.trainyard.worker.engine;

import static dev.trainyard.worker.engine.QueueFixture.queue;
import static dev.trainyard.worker.engine.RunRulesTest.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.CommitState;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.queue.QueueState;
import dev.trainyard.worker.engine.RunRulesTest.Row;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SCHEDULING.md "Predicted risk": batches and bisection spend by the risk each PR's submitter
 * predicted; without predictions the queue batches and bisects as before.
 */
class PredictedRiskRulesTest {

  /**
   * PRs {@code 1..risks.length}, submitted with these risks and ready, while the queue pauses; its
   * predictions have proven themselves ({@link QueueFixture#predictionsProven}).
   */
  static QueueFixture pausedWith(QueueFixture q, Double... risks) {
    return submittedWith(q.predictionsProven(), risks);
  }

  /** PRs {@code 1..risks.length}, submitted with these risks and ready, while the queue pauses. */
  static QueueFixture submittedWith(QueueFixture q, Double... risks) {
    q.state(QueueState.PAUSED);
    for (int i = 0; i < risks.length; i++) {
      long pr = i + 1;
      q.apply(new QueueCommand.SubmitPullRequest(pr, null, null, null, null, false, risks[i]))
          .ready(pr);
    }
    return q;
  }

  /** PRs 1 to 4 with these risks, in one batch under test. */
  static QueueFixture batchUnderTest(Double... risks) {
    return pausedWith(queue().batching(4, 0), risks).apply(running()).builtAll();
  }

  static final List<String> BISECTED =
      List.of("StatusReported", "TestRunBisected", "BisectionRunStarted", "BisectionRunStarted");

  /** A red batch of four PRs, each predicted at {@code risk}, split two and two. */
  static Row splitByCount(String name, Double risk) {
    return splitByCount(name, () -> batchUnderTest(risk, risk, risk, risk));
  }

  /** A red batch of four PRs, given by {@code given}, split two and two. */
  static Row splitByCount(String name, Supplier<QueueFixture> given) {
    return row(
        name,
        given,
        q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
        BISECTED,
        q -> {
          assertThat(q.prsOfRunOf(1)).containsExactly(1L, 2L);
          assertThat(q.prsOfRunOf(3)).containsExactly(3L, 4L);
        });
  }

  /**
   * In a queue whose predictions are not trusted, a risky PR in the middle batches with the PRs
   * around it (batchingMinSize 4, as without predictions), where a trusted prediction runs it
   * alone.
   */
  static Row unspent(String name, QueueFixture q) {
    return row(
        name,
        () -> submittedWith(q.batching(4, 0), 0.01, 0.01, 0.6, 0.01, 0.01),
        x -> running(),
        List.of("QueueUpdated", "TestRunStarted", "TestRunStarted"),
        x -> {
          assertThat(x.prsOfRunOf(1)).containsExactly(1L, 2L, 3L, 4L);
          assertThat(x.prsOfRunOf(5)).containsExactly(5L);
          assertThat(x.state().history().predictions().discriminates()).isFalse();
        });
  }

  static QueueCommand running() {
    return new QueueCommand.UpdateQueue(QueueFixture.patch(QueueState.RUNNING, null, null));
  }

  static Stream<Row> rules() {
    return Stream.of(
        row(
            "batch: low predicted risks fill the batch up to batchingMinSize",
            () -> pausedWith(queue().batching(4, 0), 0.01, 0.01, 0.01, 0.01),
            q -> running(),
            List.of("QueueUpdated", "TestRunStarted"),
            q -> assertThat(q.prsOfRunOf(1)).containsExactly(1L, 2L, 3L, 4L)),
        row(
            "batch: a risky PR ends the batch ahead of it and runs alone, then batching resumes",
            () -> pausedWith(queue().batching(4, 0), 0.01, 0.01, 0.6, 0.01, 0.01),
            q -> running(),
            List.of("QueueUpdated", "TestRunStarted", "TestRunStarted", "TestRunStarted"),
            q -> {
              assertThat(q.prsOfRunOf(1)).containsExactly(1L, 2L);
              assertThat(q.prsOfRunOf(3)).containsExactly(3L);
              assertThat(q.prsOfRunOf(4)).containsExactly(4L, 5L);
            }),
        row(
            "batch: a partial batch cut short by risk starts without waiting for more PRs",
            () -> pausedWith(queue().batching(4, 60), 0.01, 0.6),
            q -> running(),
            List.of("QueueUpdated", "TestRunStarted", "TestRunStarted"),
            q -> {
              assertThat(q.prsOfRunOf(1)).containsExactly(1L);
              assertThat(q.prsOfRunOf(2)).containsExactly(2L);
            }),
        row(
            "batch: a partial batch of low risks waits batchingMaxWaitTimeMinutes as before",
            () -> pausedWith(queue().batching(4, 60), 0.01, 0.01),
            q -> running(),
            List.of("QueueUpdated"),
            q -> assertThat(q.state().runs().live()).isEmpty()),
        row(
            "batch: a moderately risky tail is left to a batch of its own; the cut one starts at once",
            () -> pausedWith(queue().batching(6, 60), 0.01, 0.01, 0.01, 0.01, 0.2, 0.2),
            q -> running(),
            List.of("QueueUpdated", "TestRunStarted"),
            q -> {
              assertThat(q.prsOfRunOf(1)).containsExactly(1L, 2L, 3L, 4L);
              assertThat(q.state().activeEntry(5).orElseThrow().testRunId()).isNull();
            }),
        splitByCount("bisect: a red batch of PRs all predicted to pass splits by count", 0.0),
        row(
            "batch: with adaptive batching, predicted risks choose up to batchingMaxSize",
            () ->
                pausedWith(
                    queue().batching(4, 0).selfTuning(true, 6L, null),
                    0.001,
                    0.001,
                    0.001,
                    0.001,
                    0.001,
                    0.001,
                    0.001),
            q -> running(),
            List.of("QueueUpdated", "TestRunStarted", "TestRunStarted"),
            q -> {
              assertThat(q.prsOfRunOf(1)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
              assertThat(q.prsOfRunOf(7)).containsExactly(7L);
            }),
        row(
            // batchingMinSize 1 makes the queue's starting rate 1/1²: a PR without a prediction
            // counts as certain to fail, so the batch stops before it (at 0 it would carry all
            // four)
            "batch: a PR without a prediction counts at the failure rate the queue observed",
            () ->
                pausedWith(
                    queue().batching(1, 0).selfTuning(true, 4L, null), 0.01, 0.01, null, 0.01),
            q -> running(),
            List.of("QueueUpdated", "TestRunStarted", "TestRunStarted", "TestRunStarted"),
            q -> {
              assertThat(q.prsOfRunOf(1)).containsExactly(1L, 2L);
              assertThat(q.prsOfRunOf(3)).containsExactly(3L);
            }),
        row(
            "bisect: a red batch splits where each half holds about half of its predicted risk",
            () -> batchUnderTest(0.01, 0.02, 0.01, 0.2),
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            BISECTED,
            q -> {
              assertThat(q.prsOfRunOf(1)).containsExactly(1L, 2L, 3L);
              assertThat(q.prsOfRunOf(4)).containsExactly(4L);
            }),
        splitByCount("bisect: without predictions a red batch splits by count", (Double) null),
        unspent("trust: predictions the queue has not scored yet batch as none would", queue()),
        splitByCount(
            "trust: predictions the queue has not scored yet halve a red batch by count",
            () ->
                submittedWith(queue().batching(4, 0), 0.01, 0.02, 0.01, 0.2)
                    .apply(running())
                    .builtAll()),
        unspent(
            "trust: a predictor that gave every PR the same risk is blind, and is not spent by",
            queue().predictionOutcomes(0.05, 0.05)),
        unspent(
            "trust: a predictor that had it backwards is not spent by",
            queue().predictionOutcomes(0.9, 0.001)),
        row(
            "resubmit: a new prediction replaces the old, and none keeps it",
            () -> pausedWith(queue().batching(4, 0), 0.01),
            q -> new QueueCommand.SubmitPullRequest(1, null, null, null, null, false, 0.4),
            List.of("PullRequestResubmitted"),
            q -> {
              assertThat(q.state().activeEntry(1).orElseThrow().predictedRisk()).isEqualTo(0.4);
              q.apply(new QueueCommand.SubmitPullRequest(1, null, true));
              assertThat(q.state().activeEntry(1).orElseThrow().predictedRisk()).isEqualTo(0.4);
            }));
  }

  @Test
  void eachPrThatConcludesScoresTheRiskItWasPredictedAt() {
    QueueFixture q = submittedWith(queue(), 0.01, 0.3, null).apply(running()).builtAll();

    q.green(1).landed(1).built(2);
    // a resubmit once PR 2's run is under way does not change the risk its outcome scores
    q.apply(new QueueCommand.SubmitPullRequest(2, null, null, null, null, false, 0.9));
    q.red(2).built(3).green(3).landed(3);

    PredictionScore score = q.state().history().predictions();
    assertThat(score.merged().get(PredictionScore.band(0.01))).isEqualTo(PredictionScore.DECAY);
    assertThat(score.failed().get(PredictionScore.band(0.3))).isEqualTo(1.0);
    assertThat(score.failed().get(PredictionScore.band(0.9))).isZero();
    assertThat(score.merged().stream().mapToDouble(Double::doubleValue).sum())
        .as("PR 3 merged without a prediction: not scored")
        .isEqualTo(PredictionScore.DECAY);
    assertThat(q.state().activeEntry(2)).isEmpty();
    assertThat(q.state().activeEntry(3)).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void rule(Row row) {
    RunRulesTest.check(row);
  }

  /** An adaptive queue of batchingMinSize 4 and batchingMaxSize 16, paused. */
  static QueueFixture adaptive(long waitMinutes) {
    return queue().batching(4, waitMinutes).selfTuning(true, 16L, null);
  }

  static long selfTunedSize(QueueFixture q) {
    return SelfTuning.batchSize(q.state().settings(), q.state().history(), 0, b -> 0);
  }

  @Test
  void aPredictionBehindAPrThatRunsAloneLeavesTheBatchAheadAsItWas() {
    Double[] unpredicted = new Double[13];
    QueueFixture without = pausedWith(adaptive(0), unpredicted).apply(running());
    Double[] withRiskyLast = Arrays.copyOf(unpredicted, 14);
    withRiskyLast[13] = 0.5;
    QueueFixture with = pausedWith(adaptive(0), withRiskyLast).apply(running());
    assertThat(selfTunedSize(with)).isLessThan(13);
    assertThat(with.prsOfRunOf(1))
        .isEqualTo(without.prsOfRunOf(1))
        .hasSize((int) selfTunedSize(with));
  }

  @Test
  void predictedSafePrsAsManyAsTheQueueWouldBatchStartWithoutWaiting() {
    QueueFixture q = adaptive(60);
    Double[] safe = new Double[(int) selfTunedSize(q)];
    Arrays.fill(safe, 0.001);
    pausedWith(q, safe).apply(running());
    assertThat(q.prsOfRunOf(1)).hasSize(safe.length);
  }

  @ParameterizedTest(name = "risks {0}, window {1}, {2} bisection slots: the first {3}")
  @CsvSource({
    // equal risks: what bestSize chooses for that rate
    "'0.05,0.05,0.05,0.05,0.05,0.05,0.05,0.05', 10, 5, 8",
    // one risky PR in the middle: the batch stops before it
    "'0.01,0.01,0.01,0.5,0.01,0.01',            10, 5, 3",
    // a risky first PR runs alone
    "'0.5,0.01,0.01,0.01',                      10, 5, 1",
    // a moderately risky tail is cheaper as a batch of its own than carried by the safe PRs
    "'0.01,0.01,0.01,0.01,0.2,0.2',             10, 5, 4",
    "'0.01,0.01,0.01,0.01,0.2,0.2',              1, 5, 4",
    // fewer bisection slots keep up with smaller batches only
    "'0.05,0.05,0.05,0.05,0.05,0.05,0.05,0.05', 10, 1, 4",
    // nothing predicted to fail: all of them
    "'0,0,0,0,0,0,0,0,0,0,0,0',                 10, 5, 12",
  })
  void theBatchIsTheFirstOfTheCheapestSplit(String risks, long window, long slots, int expected) {
    double[] r = Stream.of(risks.split(",")).mapToDouble(Double::parseDouble).toArray();
    assertThat(SelfTuning.bestPrefix(r, window, slots)).isEqualTo(expected);
  }
}
