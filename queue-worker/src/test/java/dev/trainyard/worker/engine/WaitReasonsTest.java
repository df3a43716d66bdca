package dev.trainyard.worker.engine;

import static dev.trainyard.worker.engine.PredictedRiskRulesTest.pausedWith;
import static dev.trainyard.worker.engine.QueueFixture.parallelQueue;
import static dev.trainyard.worker.engine.QueueFixture.queue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.view.QueueForecast;
import dev.trainyard.common.view.WaitCode;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SCHEDULING.md "Why a PR waits": each PR in line gets the reason the run rules left it waiting,
 * one code per PR in the forecast's order (the PRs in runs first, {@link WaitCode}): t in a run
 * being tested, w in a run with a verdict, s next for a slot (S alone by a flag, r alone by its
 * risk, P for the runs ahead to pass, the CI budget pricing a run that deep out), b its batch
 * fills, a behind others (A, q alone), c split off by the predicted risks, h its bisection run
 * waits, d its dependencies, p the queue starts nothing; in parallel mode l its lane is full, L its
 * lane is held for a PR spanning it, x it spans lanes, o an earlier PR overlaps it; - not waiting
 * (not ready).
 */
class WaitReasonsTest {

  record Row(String name, Supplier<QueueFixture> given, String codes, Duration batchFor) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Row row(String name, Supplier<QueueFixture> given, String codes) {
    return new Row(name, given, codes, null);
  }

  static Stream<Row> rows() {
    return Stream.of(
        row("nothing waits: the one PR is in a run", () -> queue().queued(1), "t"),
        row(
            "a passed run waits to land; the PR behind it is tested",
            () -> queue().queued(1).built(1).green(1).queued(2),
            "wt"),
        row(
            "the slots are full: the next PR waits for one, the others for it",
            () -> queue().concurrency(1).queued(1, 2, 3),
            "tsa"),
        new Row(
            "a partial batch fills until the oldest has waited batchingMaxWaitTimeMinutes",
            () -> queue().batching(4, 60).queued(1, 2),
            "bb",
            Duration.ofMinutes(60)),
        new Row(
            "a partial batch without a free slot waits for one, then to fill",
            () -> queue().concurrency(1).queued(1).batching(4, 60).queued(2),
            "ts",
            Duration.ofMinutes(60)),
        row(
            "a full batch waits for a slot as one; the PRs behind it for it",
            () -> queue().concurrency(1).batching(2, 0).queued(1, 2, 3, 4, 5, 6),
            "tssaaa"),
        row(
            "noBatch: it waits for a slot, and will run alone",
            () -> queue().concurrency(1).batching(4, 0).queued(1).queuedAlone(2),
            "tS"),
        row(
            "noBatch behind a PR: it waits for that one, and will run alone",
            () -> queue().concurrency(1).batching(4, 0).queued(1, 2).queuedAlone(3),
            "tsA"),
        row(
            "a predicted risk too high to batch, next: it waits for a slot, and will run alone",
            () -> predicted(queue().concurrency(1).batching(4, 0).queued(1), 2, 0.6),
            "tr"),
        row(
            "a predicted risk too high to batch: behind the batch it ended, it runs alone",
            () ->
                predicted(
                    predicted(queue().concurrency(1).batching(4, 0).queued(1), 2, 0.01), 3, 0.6),
            "tsq"),
        row(
            "the predicted risks split the next batch: the cut PRs wait for later runs",
            () -> {
              QueueFixture q = queue().concurrency(1).queued(1).batching(6, 60);
              for (long pr = 2; pr <= 6; pr++) {
                predicted(q, pr, pr <= 4 ? 0.01 : 0.3);
              }
              return q;
            },
            "tssscc"),
        row(
            "a red batch's bisection: the second half's run waits for a bisection slot",
            () ->
                pausedWith(queue().batching(4, 0).bisectionConcurrency(1), null, null, null, null)
                    .apply(PredictedRiskRulesTest.running())
                    .builtAll()
                    .red(1),
            "tthh"),
        row("the queue is paused: nothing starts", () -> pausedWith(queue(), null, null), "pp"),
        row(
            "a CI budget prices the fourth run out: its PR waits for the runs ahead to pass",
            () ->
                pausedWith(SpeculationPriceTest.overspent(), 0.2, 0.2, 0.2, 0.2, 0.2)
                    .apply(PredictedRiskRulesTest.running()),
            "tttPa"),
        row(
            "a dependency not ready: the dependent waits for it",
            () -> queue().submitted(1).dependent(2, 1L).ready(2),
            "-d"),
        row(
            "parallel: a PR on a full lane waits for its lanes",
            () -> parallelQueue().concurrency(1).lane(1, "a").lane(2, "a"),
            "tl"),
        row(
            "parallel: behind an earlier waiting PR it overlaps",
            () -> parallelQueue().concurrency(1).lane(1, "a").lane(2, "a").lane(3, "a"),
            "tlo"),
        row("parallel: targets that span two lanes", ParallelRulesTest::spanning, "ttx"),
        row(
            "parallel: a lane with a free slot held for the PR that spans it",
            () ->
                ParallelRulesTest.spanning().after(QueueEngine.SPAN_BARRIER).tick().lane(4, "docs"),
            "ttxL"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void eachPrInLineGetsTheReasonItWaits(Row row) {
    QueueFixture q = row.given().get();
    QueueForecast forecast = Forecast.of(q.state(), q.now());
    assertThat(forecast.waits()).as(row.name()).isEqualTo(row.codes());
    if (row.batchFor() == null) {
      assertThat(forecast.batchUntil()).isNull();
    } else {
      assertThat(forecast.batchUntil()).isEqualTo(q.now().plus(row.batchFor()));
    }
  }

  @Test
  void everyCodeIsWhatSomeStateLeaves() {
    Set<Character> seen = new HashSet<>();
    rows().forEach(r -> r.codes().chars().forEach(c -> seen.add((char) c)));
    assertThat(seen)
        .containsExactlyInAnyOrderElementsOf(
            Arrays.stream(WaitCode.values()).map(WaitCode::code).toList());
  }

  @Test
  void onlyTheFirstFiveHundredInLineGetACodeTheLastOfThemItsOwn() {
    QueueFixture q = queue(10_000).concurrency(1);
    for (long pr = 1; pr <= QueueForecast.MAX_LINE + 1; pr++) {
      q.queued(pr);
    }
    QueueForecast forecast = Forecast.of(q.state(), q.now());
    assertThat(forecast.waits()).hasSize(QueueForecast.MAX_LINE);
    assertThat(forecast.numbers()).hasSize(QueueForecast.MAX_LINE);
    assertThat(forecast.waits()).startsWith("tsa").endsWith("aa");
  }

  /** {@code pr} submitted with {@code risk}, and ready, in a queue whose predictions proved. */
  static QueueFixture predicted(QueueFixture q, long pr, double risk) {
    return q.predictionsProven()
        .apply(new QueueCommand.SubmitPullRequest(pr, null, null, null, null, false, risk))
        .ready(pr);
  }
}
