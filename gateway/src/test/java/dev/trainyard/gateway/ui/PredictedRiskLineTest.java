package dev.trainyard.gateway.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.view.QueueForecast;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The queue page's line on the submits' predicted risks. */
class PredictedRiskLineTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          not known yet | | false | ''
          trusted | 0.83 | true | Predicted risks told failed PRs from merged ones with an AUC of 0.83 (0.5 is chance): batches, culprit finding and the CI budget's price use them.
          not trusted | 0.5 | false | Predicted risks told failed PRs from merged ones with an AUC of 0.50 (0.5 is chance): not yet shown to be better than chance, so the queue schedules as if none were given.
          """)
  void thePageSaysHowThePredictionsDidAndWhetherTheQueueUsesThem(
      String rule, Double auc, boolean trusted, String line) {
    QueueForecast forecast = QueueForecast.NONE.withLearned(null, auc, trusted);

    assertThat(PredictedRiskLine.of(forecast)).isEqualTo(line);
  }
}
