package dev.trainyard.worker.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.view.QueueForecast;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * SCHEDULING.md "Predicted risk": the queue spends by predictions only once they have told the PRs
 * that failed from those that merged better than chance, over enough failures.
 */
class PredictionScoreTest {

  /**
   * {@code merged} PRs predicted at 0.01 and {@code failed} at 0.3, of which the share {@code
   * swapped} of each was predicted at the other's risk instead; then {@code blind} more of each
   * kind split evenly over both risks.
   */
  static PredictionScore scored(int merged, int failed, double swapped, int blind) {
    PredictionScore score = PredictionScore.NONE;
    score = score.observed(mixed(merged, swapped, 0.01, 0.3), false);
    score = score.observed(mixed(failed, swapped, 0.3, 0.01), true);
    score = score.observed(mixed(blind * 19, 0.5, 0.01, 0.3), false);
    return score.observed(mixed(blind, 0.5, 0.01, 0.3), true);
  }

  /**
   * {@code n} risks: the share {@code swapped} of them at {@code other}, spread evenly among the
   * rest at {@code own} (so that the decay weighs both alike).
   */
  private static List<Double> mixed(int n, double swapped, double own, double other) {
    List<Double> risks = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      boolean isOther = Math.floor((i + 1) * swapped) > Math.floor(i * swapped);
      risks.add(isOther ? other : own);
    }
    return risks;
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "nothing seen yet: no trust                                    |   0 |  0 | 0   |    0 | 0.5  | false",
        "merges only: no failure to tell apart                         | 100 |  0 | 0   |    0 | 0.5  | false",
        "a perfect predictor over 20 failures: trusted                 | 380 | 20 | 0   |    0 | 1.0  | true",
        "a perfect predictor over 4 failures: too few to say           |  76 |  4 | 0   |    0 | 1.0  | false",
        "a perfect predictor over 5 failures: trusted                  |  95 |  5 | 0   |    0 | 1.0  | true",
        "a perfect predictor over 6 failures and 2 merges: too few     |   2 |  6 | 0   |    0 | 1.0  | false",
        "a predictor right four times in five, 20 failures: trusted    | 380 | 20 | 0.2 |    0 | 0.8  | true",
        "a predictor right three times in five, 20 failures: not shown | 380 | 20 | 0.4 |    0 | 0.6  | false",
        "a predictor right three times in five, 60 failures: trusted   | 1140| 60 | 0.4 |    0 | 0.6  | true",
        "a blind predictor: never trusted                              | 380 | 20 | 0.5 |    0 | 0.5  | false",
        "a predictor that has it backwards: never trusted              | 380 | 20 | 1   |    0 | 0.0  | false",
        "a perfect history, then 3,000 blind outcomes: no longer       | 380 | 20 | 0   |  150 | 0.5  | false",
      })
  void aPredictorIsTrustedOnceItTellsFailuresFromMerges(
      String rule, int merged, int failed, double swapped, int blind, double auc, boolean trusted) {
    PredictionScore score = scored(merged, failed, swapped, blind);

    assertThat(score.auc()).isCloseTo(auc, within(0.02));
    assertThat(score.discriminates()).isEqualTo(trusted);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "no prediction scored: neither shown nor trusted       | none     |      | false",
        "proven: shown, and trusted                            | proven   | 1.0  | true",
        "blind: shown at 0.5, not trusted                      | blind    | 0.5  | false",
        "backwards: shown at 0, not trusted                    | inverted | 0.0  | false",
      })
  void getQueueSaysHowThePredictionsDidAndWhetherTheQueueSpendsByThem(
      String rule, String history, Double auc, boolean trusted) {
    QueueFixture q = QueueFixture.queue();
    switch (history) {
      case "proven" -> q.predictionsProven();
      case "blind" -> q.predictionOutcomes(0.05, 0.05);
      case "inverted" -> q.predictionOutcomes(0.9, 0.001);
      default -> {}
    }

    QueueForecast forecast = Forecast.of(q.state(), q.now());

    assertThat(forecast.predictedRiskAuc()).isEqualTo(auc);
    assertThat(forecast.predictedRiskTrusted()).isEqualTo(trusted);
  }

  @Test
  void eachRiskFallsInTheBandItsEdgesSay() {
    double[] risks = {0, 0.005, 0.0051, 0.05, 0.3, 0.65, 0.66, 1};
    int[] bands = {0, 0, 1, 5, 10, 12, 13, 13};
    for (int i = 0; i < risks.length; i++) {
      assertThat(PredictionScore.band(risks[i])).as("risk %s", risks[i]).isEqualTo(bands[i]);
    }
  }

  @Test
  void aScoreIsStoredAndReadBackAsItWas() {
    PredictionScore score = scored(380, 20, 0.2, 0);
    RunHistory history = RunHistory.EMPTY.predicted(List.of(0.3), true);

    Object stored = Json.mapper().convertValue(score, Object.class);
    RunHistory readHistory =
        Json.mapper()
            .convertValue(Json.mapper().convertValue(history, Object.class), RunHistory.class);

    assertThat(Json.mapper().convertValue(stored, PredictionScore.class)).isEqualTo(score);
    assertThat(readHistory.predictions()).isEqualTo(history.predictions());
    assertThat(readHistory.predictions().failed().get(PredictionScore.band(0.3))).isEqualTo(1.0);
  }

  @Test
  void whatIsNotAPredictionCountsForNothing() {
    assertThat(PredictionScore.NONE.observed(Collections.nCopies(50, null), true))
        .as("PRs without a prediction are not counted")
        .isEqualTo(PredictionScore.NONE);
    assertThat(new PredictionScore(List.of(3.0, 4.0), List.of(100.0, 200.0)))
        .as("a stored score of other bands is read as none")
        .isEqualTo(PredictionScore.NONE);
  }
}
