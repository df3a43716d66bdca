package dev.trainyard.gateway.ui;

import dev.trainyard.common.view.QueueForecast;
import java.util.Locale;

/**
 * The queue page's line on how well the submits' predicted risks told failing PRs from merging
 * ones, and whether the queue spends by them (SCHEDULING.md "Predicted risk"); empty until enough
 * PRs with a prediction concluded to say.
 */
final class PredictedRiskLine {
  private PredictedRiskLine() {}

  static String of(QueueForecast forecast) {
    Double auc = forecast.predictedRiskAuc();
    String use =
        forecast.predictedRiskTrusted()
            ? "batches, culprit finding and the CI budget's price use them."
            : "not yet shown to be better than chance, so the queue schedules as if none were given.";
    return auc == null
        ? ""
        : String.format(
            Locale.ROOT,
            "Predicted risks told failed PRs from merged ones with an AUC of %.2f (0.5 is chance): %s",
            auc,
            use);
  }
}
