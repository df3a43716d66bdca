package dev.trainyard.gateway.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.QueueSettings;
import dev.trainyard.common.queue.QueueState;
import dev.trainyard.common.view.QueueForecast;
import dev.trainyard.common.view.QueueView;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.node.ObjectNode;

/** The queue page's line on what CI cost per merged PR, against the budget. */
class CiSpendLineTest {

  private static QueueView queue(Double spent, QueueMode mode, boolean adaptive, long budget) {
    ObjectNode json = Json.mapper().valueToTree(QueueSettings.defaults(mode, 2));
    json.setAll(
        (ObjectNode)
            Json.mapper()
                .valueToTree(
                    Map.of(
                        "batch", adaptive,
                        "batchingAdaptive", adaptive,
                        "ciBudgetMinutesPerMerge", budget)));
    QueueSettings settings = Json.mapper().treeToValue(json, QueueSettings.class);
    QueueForecast forecast = QueueForecast.NONE.withLearned(spent, null, false);
    return new QueueView(QueueState.RUNNING, "main", settings, null, List.of(), forecast);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          not known yet       |      | SINGLE   | true  | 30 | ''
          no budget           | 27.04 | SINGLE   | true  | 0  | CI spent 27.0 minutes per merged PR lately (the last day weighs most); no budget is set.
          within the budget   | 27.0 | SINGLE   | true  | 30 | CI spent 27.0 minutes per merged PR lately (the last day weighs most), within its budget of 30 minutes.
          at the budget       | 30.0 | SINGLE   | true  | 30 | CI spent 30.0 minutes per merged PR lately (the last day weighs most), within its budget of 30 minutes.
          over the budget     | 38.5 | SINGLE   | true  | 30 | CI spent 38.5 minutes per merged PR lately (the last day weighs most): over its budget of 30 minutes. When no batch size is within the budget at the failure rate the queue sees, batches take the cheapest size.
          not adaptive        | 38.5 | SINGLE   | false | 30 | CI spent 38.5 minutes per merged PR lately (the last day weighs most); the budget of 30 minutes is not used: it sizes adaptive batches, in single mode only.
          parallel lanes      | 38.5 | PARALLEL | true  | 30 | CI spent 38.5 minutes per merged PR lately (the last day weighs most); the budget of 30 minutes is not used: it sizes adaptive batches, in single mode only.
          """)
  void saysWhatCiCostAgainstTheBudget(
      String why, Double spent, QueueMode mode, boolean adaptive, long budget, String line) {
    assertThat(CiSpendLine.of(queue(spent, mode, adaptive, budget))).isEqualTo(line);
  }
}
