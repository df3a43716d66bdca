package dev.trainyard.worker.engine;

import static dev.trainyard.worker.engine.QueueFixture.T0;
import static dev.trainyard.worker.engine.QueueFixture.queue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.trainyard.common.view.QueueForecast;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What a queue's CI cost per merged PR lately (SCHEDULING.md "A CI budget"). */
class CiSpendTest {
  private static final Duration TEN = Duration.ofMinutes(10);
  private static final Duration DAY = Duration.ofHours(24);

  record Case(String why, CiSpend spend, Double perMerge) {}

  static Stream<Arguments> spends() {
    CiSpend fourRunsThreeMerges =
        CiSpend.NONE
            .spent(TEN, T0)
            .merged(1, T0)
            .spent(TEN, T0)
            .merged(1, T0)
            .spent(TEN, T0) // red: spent, nothing merged
            .spent(TEN, T0)
            .merged(1, T0);
    CiSpend oldCheapThenNewDear =
        CiSpend.NONE
            .spent(Duration.ofMinutes(30), T0)
            .merged(3, T0)
            .spent(Duration.ofMinutes(90), T0.plus(DAY))
            .merged(3, T0.plus(DAY));
    return Stream.of(
            new Case("nothing merged yet: unknown", CiSpend.NONE, null),
            new Case(
                "two merges are too few to say", CiSpend.NONE.spent(TEN, T0).merged(2, T0), null),
            new Case("a red run is paid by the PRs merged", fourRunsThreeMerges, 40.0 / 3),
            new Case(
                "a day later the older runs weigh half",
                oldCheapThenNewDear,
                (30 * 0.5 + 90) / (3 * 0.5 + 3)),
            new Case(
                "three merges, then half a day: the older weigh under three, so unknown again",
                CiSpend.NONE.merged(3, T0).merged(0, T0.plus(Duration.ofHours(12))),
                null),
            new Case(
                "an event older than the last one is counted without weighting",
                CiSpend.NONE.merged(3, T0.plus(TEN)).spent(Duration.ofMinutes(30), T0),
                10.0))
        .map(c -> Arguments.of(c.why(), c));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("spends")
  void costPerMergedPr(String why, Case c) {
    if (c.perMerge() == null) {
      assertThat(c.spend().minutesPerMerge()).isEmpty();
    } else {
      assertThat(c.spend().minutesPerMerge().orElseThrow()).isCloseTo(c.perMerge(), within(1e-9));
    }
  }

  record Flow(String why, QueueFixture queue, double perMerge) {}

  static Stream<Arguments> flows() {
    QueueFixture fourLanded = queue();
    for (long pr = 1; pr <= 4; pr++) {
      fourLanded.queued(pr).built(pr).after(TEN).green(pr).landed(pr);
    }
    QueueFixture aRedBetween = queue();
    for (long pr = 1; pr <= 3; pr++) {
      aRedBetween.queued(pr).built(pr).after(TEN).green(pr).landed(pr);
    }
    aRedBetween.queued(4).built(4).after(TEN).red(4);
    for (long pr = 5; pr <= 6; pr++) {
      aRedBetween.queued(pr).built(pr).after(TEN).green(pr).landed(pr);
    }
    QueueFixture thrownAway = queue().concurrency(2);
    thrownAway.queued(1, 2).builtAll().after(TEN).red(1); // 2 tested on 1: thrown away
    thrownAway.builtAll().after(TEN).green(2).landed(2);
    thrownAway.queued(3, 4).builtAll().after(TEN).green(3).green(4).landed(3).landed(4);
    thrownAway.queued(5).built(5).after(TEN).green(5).landed(5);
    return Stream.of(
            new Flow("four runs of ten minutes landed four PRs", fourLanded, 10),
            new Flow("a red run's ten minutes are shared by five merged PRs", aRedBetween, 12),
            new Flow("speculation thrown away behind a red is paid for", thrownAway, Double.NaN))
        .map(f -> Arguments.of(f.why(), f));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("flows")
  void theEngineSpendsEachRunsTestingTime(String why, Flow f) {
    QueueAggregate state = f.queue().state();
    double perMerge = state.history().spend().minutesPerMerge().orElseThrow();
    if (Double.isNaN(f.perMerge())) {
      assertThat(perMerge).as("more than the merged PRs' own runs").isGreaterThan(10);
    } else {
      // the runs are minutes apart: their weights differ by under 0.1 %
      assertThat(perMerge).isCloseTo(f.perMerge(), within(0.05));
    }
    QueueForecast forecast = Forecast.of(state, f.queue().now());
    assertThat(forecast.ciMinutesPerMerge()).isCloseTo(perMerge, within(0.05));
    assertThat(forecast.overBudget(0)).as("no budget: never over it").isFalse();
    assertThat(forecast.overBudget((long) Math.floor(perMerge) - 1)).isTrue();
    assertThat(forecast.overBudget((long) Math.ceil(perMerge) + 1)).isFalse();
  }
}
