package dev.trainyard.gateway.ui;

import dev.trainyard.common.queue.QueueSettings;
import dev.trainyard.common.view.QueueView;
import java.util.Locale;

/**
 * The queue page's line on what CI cost per merged PR lately, against the queue's budget
 * (SCHEDULING.md "A CI budget"); empty until the queue has merged enough PRs to say.
 */
final class CiSpendLine {
  private CiSpendLine() {}

  static String of(QueueView view) {
    Double spent = view.forecast().ciMinutesPerMerge();
    if (spent == null) {
      return "";
    }
    String line =
        String.format(
            Locale.ROOT,
            "CI spent %.1f minutes per merged PR lately (the last day weighs most)",
            spent);
    QueueSettings settings = view.settings();
    long budget = settings.ciBudgetMinutesPerMerge();
    if (budget == 0) {
      return line + "; no budget is set.";
    }
    if (!settings.ciBudgetInForce()) {
      return line
          + "; the budget of "
          + budget
          + " minutes is not used: it sizes adaptive batches, in single mode only.";
    }
    return view.forecast().overBudget(budget)
        ? line
            + ": over its budget of "
            + budget
            + " minutes. When no batch size is within the budget at the failure rate the queue"
            + " sees, batches take the cheapest size."
        : line + ", within its budget of " + budget + " minutes.";
  }
}
