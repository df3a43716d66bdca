package dev.trainyard.worker.engine;

import static dev.trainyard.worker.engine.PredictedRiskRulesTest.pausedWith;
import static dev.trainyard.worker.engine.PredictedRiskRulesTest.running;
import static dev.trainyard.worker.engine.QueueFixture.queue;
import static dev.trainyard.worker.engine.RunRulesTest.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.CommitState;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.view.QueueForecast;
import dev.trainyard.common.view.WaitingFor;
import dev.trainyard.worker.engine.RunRulesTest.Row;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SCHEDULING.md "Speculation at a price": once CI spent more per merged PR than the queue's budget,
 * a run behind runs without a green verdict starts only while a run's CI minutes over the PRs it is
 * expected to land are within the allowance, budget × budget / spent. Every queue here runs one PR
 * a run (adaptive batching up to 1), and runs take 30 minutes (the queue's estimate before its
 * first verdict, and the fixture's runs after it).
 */
class SpeculationPriceTest {
  private static final List<String> STARTED = List.of("TestRunStarted");

  /** One PR a run, at {@code minutes} CI minutes a merged PR (0: no budget). */
  static QueueFixture budgeted(long minutes) {
    return queue().batching(1, 0).selfTuning(true, 1L, null).ciBudget(minutes);
  }

  /**
   * PRs 1 to {@code n} predicted at {@code risk}, under test as the budget allows once CI spent
   * twice it (an allowance of half the budget); without a budget, after 60 minutes a merged PR.
   */
  static QueueFixture underTest(long budget, int n, double risk) {
    Double[] risks = Collections.nCopies(n, risk).toArray(Double[]::new);
    double spent = budget == 0 ? 60 : 2.0 * budget;
    return pausedWith(budgeted(budget).ciSpent(spent), risks).apply(running()).builtAll();
  }

  /**
   * One PR a run, 120 CI minutes a merged PR budgeted and 240 spent: the allowance is 120 × 120 /
   * 240 = 60 minutes, two 30-minute runs, so a run must be expected to land half a PR.
   */
  static QueueFixture overspent() {
    return budgeted(120).ciSpent(240);
  }

  static List<String> updatedAndStarted(int runs) {
    return Stream.concat(
            Stream.of("QueueUpdated"), Collections.nCopies(runs, "TestRunStarted").stream())
        .toList();
  }

  static String waits(QueueFixture q) {
    return WaitReasons.of(q.state(), q.state().inQueueOrder(), q.now()).codes();
  }

  static Stream<Row> rules() {
    return Stream.of(
        started(
            // a run must be expected to land half a PR, and 0.8³ = 0.51 of the third is, 0.8⁴ of
            // the fourth is not
            "price: past the budget, speculation stops where a run lands less than the price",
            () -> pausedWith(overspent(), 0.2, 0.2, 0.2, 0.2, 0.2),
            3,
            "tttPa"),
        row(
            "price: a run ahead that passes makes the next one worth its CI",
            () -> underTest(120, 5, 0.2).after(Duration.ofMinutes(30)),
            q -> RunRulesTest.status(q, 1, CommitState.SUCCESS),
            List.of("StatusReported", "TestRunPassed", "TestRunStarted"),
            q -> {
              assertThat(q.runOf(4).state()).isEqualTo(RunState.BUILDING);
              assertThat(waits(q)).isEqualTo("wtttP");
            }),
        unpriced(
            // were 55 spent against 60 priced, 60 × 60 / 55 = 65 minutes would hold the fourth run
            "price: none while CI spends within the budget, the window alone decides",
            () -> budgeted(60).ciSpent(55)),
        unpriced("price: none while too few PRs merged to say what CI spends", () -> budgeted(1)),
        unpriced("price: without a budget the window alone decides", () -> budgeted(0).ciSpent(60)),
        started(
            "price: PRs predicted never to fail speculate to the window",
            () -> pausedWith(overspent(), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
            5,
            "ttttts"),
        started(
            "price: the first run of the chain starts however risky its PR and small the budget",
            () -> pausedWith(budgeted(1).ciSpent(60), 0.3, 0.3),
            1,
            "tP"),
        started(
            // 12 PRs for a window of 5 runs of one: 9 still wait, a backlog, so the price holds
            // none of the window's runs back
            "price: a queue falling behind speculates to the window whatever the price",
            () -> pausedWith(overspent(), Collections.nCopies(12, 0.2).toArray(Double[]::new)),
            5,
            "tttttsaaaaaa"),
        redThird(
            "price: no run starts behind a red one, which leaves nothing on the landing path",
            300,
            7,
            false),
        // 15 PRs for a window of 5 runs of one: a backlog, which the red still stops
        redThird(
            "price: no run starts behind a red one, even while the queue falls behind",
            120,
            15,
            false),
        redThird("price: without a budget a run starts behind the red one", 0, 7, true));
  }

  /**
   * PRs 1 to {@code n} predicted at 1 % under test at {@code budget}, and the third run goes red: a
   * run starts behind it or not ({@code startsBehind}).
   */
  private static Row redThird(String rule, long budget, int n, boolean startsBehind) {
    List<String> events =
        startsBehind
            ? List.of("StatusReported", "TestRunWentRed", "TestRunStarted")
            : List.of("StatusReported", "TestRunWentRed");
    return row(
        rule,
        () -> underTest(budget, n, 0.01).after(Duration.ofMinutes(30)),
        q -> RunRulesTest.status(q, 3, CommitState.FAILURE),
        events,
        q -> assertThat(q.state().runs().chain()).hasSize(startsBehind ? 6 : 5));
  }

  /** Five PRs predicted at 20 % on {@code queue}: nothing prices them, all five start. */
  private static Row unpriced(String rule, Supplier<QueueFixture> queue) {
    return started(rule, () -> pausedWith(queue.get(), 0.2, 0.2, 0.2, 0.2, 0.2), 5, "ttttt");
  }

  /**
   * The queue {@code given} starts its runs: {@code runs} start, and its PRs wait as {@code waits}.
   */
  private static Row started(String rule, Supplier<QueueFixture> given, int runs, String waits) {
    return row(
        rule,
        given,
        q -> running(),
        updatedAndStarted(runs),
        q -> assertThat(waits(q)).isEqualTo(waits));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void rule(Row row) {
    RunRulesTest.check(row);
  }

  @ParameterizedTest(name = "budget {0}, spent {1}: {2} minutes a merged PR")
  @CsvSource({
    // too few merged PRs to say what CI spent: no price
    "30,    , Infinity",
    // spent within the budget: no price, the budgeted batch size spends about the budget
    "30,   0, Infinity",
    "30,  20, Infinity",
    "30,  30, Infinity",
    // past it: the allowance falls as budget × budget / spent
    "30,  40, 22.5",
    "30,  60, 15",
    "30,  90, 10",
    "60,  80, 45"
  })
  void theAllowanceFollowsWhatCiSpentAgainstTheBudget(long budget, Double spent, double allowance) {
    assertThat(SpeculationPrice.allowance(budget, Optional.ofNullable(spent))).isEqualTo(allowance);
  }

  @Test
  void aBatchThePriceHoldsAsksForNoTick() {
    // 20 minutes budgeted, 40 spent: a 30-minute run must land 3 PRs, which no batch of 2 behind
    // an undecided run does; #3's batch waits 10 minutes for a second PR, and the price then holds
    // it
    QueueFixture pairs = queue().batching(2, 10).selfTuning(true, 2L, null);
    QueueFixture q = pairs.ciBudget(20).ciSpent(40).queued(1, 2, 3);
    q.after(Duration.ofMinutes(11)).tick();

    assertThat(q.state().runs().chain()).hasSize(1);
    assertThat(waits(q)).isEqualTo("ttP");
    assertThat(new QueueEngine().nextDeadline(q.state(), q.now()))
        .hasValueSatisfying(next -> assertThat(next).isAfter(q.now()));
  }

  @Test
  void aPricedPrSaysWhyItWaitsAndWhatIsTestedInstead() {
    QueueFixture q = pausedWith(overspent(), 0.2, 0.2, 0.2, 0.2).apply(running());
    QueueForecast forecast = Forecast.of(q.state(), q.now());
    assertThat(forecast.place("pr 4", 4, PrState.PENDING, q.now()).waitingFor())
        .isEqualTo(WaitingFor.TEST_SLOT);
    assertThat(forecast.waitingReason(4))
        .contains(
            "It is next to be tested and starts once enough test runs ahead of it have passed or"
                + " left: they may still fail, and while CI spends past the queue's budget"
                + " (ciBudgetMinutesPerMerge) a run this far behind them is more likely to be"
                + " thrown away than worth its CI minutes; being tested now: #1, #2, #3.");
  }
}
