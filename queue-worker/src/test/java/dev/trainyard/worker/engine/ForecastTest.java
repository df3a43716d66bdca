package dev.trainyard.worker.engine;

import static dev.trainyard.worker.engine.QueueFixture.T0;
import static dev.trainyard.worker.engine.QueueFixture.queue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.view.QueueForecast;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ForecastTest {
  private static final Duration RUN = Duration.ofMinutes(10);

  /** One run took ten minutes and landed; then PRs 2–5 queued with two slots: 2 and 3 test. */
  private static QueueFixture twoSlotsFourWaiting() {
    return queue()
        .concurrency(2)
        .queued(1)
        .built(1)
        .after(RUN)
        .green(1)
        .landed(1)
        .queued(2, 3, 4, 5);
  }

  private static Optional<Instant> eta(QueueForecast f, long pr, QueueFixture q) {
    return f.estimatedMergeAt(pr, q.now());
  }

  @Test
  void runsInFlightLandAMedianRunAfterTheyStartedAndTheNextTakeTheSlotsAsTheyFree() {
    QueueFixture q = twoSlotsFourWaiting();
    QueueForecast f = Forecast.of(q.state(), q.now());

    assertThat(f.numbers()).containsExactly(2L, 3L, 4L, 5L);
    assertThat(f.position(4)).contains(3);
    Instant start = T0.plus(RUN);
    assertThat(eta(f, 2, q)).contains(start.plus(RUN));
    assertThat(eta(f, 3, q)).contains(start.plus(RUN));
    assertThat(eta(f, 4, q)).contains(start.plus(RUN).plus(RUN));
    assertThat(eta(f, 5, q)).contains(start.plus(RUN).plus(RUN));
    assertThat(f.position(1)).as("landed: no longer in line").isEmpty();
  }

  @Test
  void aFreezeDelaysEveryLandingToItsEndOrLeavesItUnknown() {
    Instant until = T0.plus(Duration.ofHours(3));
    QueueForecast thawing = Forecast.of(twoSlotsFourWaiting().frozen(until).state(), T0.plus(RUN));
    assertThat(thawing.estimatedMergeAt(5, T0)).contains(until);

    QueueForecast frozen = Forecast.of(twoSlotsFourWaiting().frozen(null).state(), T0.plus(RUN));
    assertThat(frozen.position(5)).contains(4);
    assertThat(frozen.estimatedMergeAt(5, T0)).isEmpty();
  }

  @Test
  void aLandingOutsideEveryWindowWaitsForTheNextOpening() {
    QueueFixture q = twoSlotsFourWaiting().windows(QueueControlRulesTest.SATURDAY);
    QueueForecast f = Forecast.of(q.state(), q.now());
    assertThat(eta(f, 2, q)).contains(QueueControlRulesTest.SATURDAY_NINE);
  }

  @Test
  void withoutHistoryThereIsAPlaceButNoEstimate() {
    QueueFixture q = queue().queued(1, 2);
    QueueForecast f = Forecast.of(q.state(), q.now());
    assertThat(f.numbers()).containsExactly(1L, 2L);
    assertThat(eta(f, 1, q)).isEmpty();
  }

  @Test
  void aPrIsInLineAfterWhatItDependsOnAndRedRunsAheadDelayIt() {
    QueueFixture q = queue().dependent(6, 7L).submitted(7);
    assertThat(Forecast.line(q.state()).stream().map(Entry::prNumber)).containsExactly(7L, 6L);

    QueueFixture flaky = twoSlotsFourWaiting();
    flaky.built(2).after(RUN).red(2); // half the history is red now
    QueueForecast f = Forecast.of(flaky.state(), flaky.now());
    assertThat(flaky.state().history().failureRate()).isEqualTo(0.5);
    assertThat(eta(f, 5, flaky).orElseThrow())
        .as("later than a clean run of the queue")
        .isAfter(flaky.now().plus(RUN));
  }

  @Test
  void theQueuesPaceCountsOnlyTheTimeItHadWorkAndTheLaterEstimateWins() {
    Duration ten = Duration.ofMinutes(10);
    RunHistory h =
        RunHistory.EMPTY
            .landed(T0, 1, true)
            .landed(T0.plus(ten), 1, true)
            .landed(T0.plus(ten.multipliedBy(2)), 2, false)
            .landed(T0.plus(Duration.ofHours(5)), 1, true) // after an idle queue: not counted
            .landed(T0.plus(Duration.ofHours(5)).plus(ten), 1, true);
    assertThat(h.busyTimePerPr()).as("30 min over 4 PRs").contains(Duration.ofSeconds(450));
    assertThat(RunHistory.EMPTY.landed(T0, 1, true).busyTimePerPr()).isEmpty();

    // the queue lands a PR every 40 minutes while busy, slower than its runs allow
    QueueFixture slow = twoSlotsFourWaiting();
    RunHistory paced = slow.state().history();
    for (int i = 0; i < 4; i++) {
      paced = paced.landed(T0.plus(Duration.ofMinutes(40L * i)), 1, true);
    }
    QueueAggregate state = slow.state().withHistory(paced);
    assertThat(Forecast.of(state, slow.now()).estimatedMergeAt(5, slow.now()))
        .contains(slow.now().plus(Duration.ofMinutes(160)));
  }

  @Test
  void aPrNotReadyHoldsNoPlaceAndHasNoEstimate() {
    QueueFixture q = twoSlotsFourWaiting().submitted(6).queued(7, 8);
    QueueForecast f = Forecast.of(q.state(), q.now());
    assertThat(q.stateOf(6)).isEqualTo(dev.trainyard.common.queue.PrState.NOT_READY);
    assertThat(eta(f, 6, q)).isEmpty();
    Instant start = T0.plus(RUN);
    assertThat(eta(f, 8, q))
        .as("7 and 8 share the third round of the two slots, as if 6 were not there")
        .contains(start.plus(RUN.multipliedBy(3)));
  }

  @Test
  void timeLandingWasHeldOrTheQueueIdleWithOnlyPrsNotReadyIsNotThePace() {
    Duration ten = Duration.ofMinutes(10);
    RunHistory h =
        RunHistory.EMPTY.landed(T0, 1, true).idle().landed(T0.plus(Duration.ofHours(5)), 1, true);
    assertThat(h.busyGapsMillis()).as("a gap with a freeze in it is not counted").isEmpty();

    // a landing that leaves only a PR not ready behind: the wait for it to be ready is not work
    QueueFixture q = queue().queued(1).built(1).after(ten).green(1).submitted(2).landed(1);
    assertThat(q.state().history().busyAfterLast()).isFalse();
    QueueFixture frozen = queue().queued(1).built(1).after(ten).green(1).queued(2).landed(1);
    assertThat(frozen.state().history().busyAfterLast()).isTrue();
    frozen.frozen(null);
    assertThat(frozen.state().history().busyAfterLast()).isFalse();
  }
}
