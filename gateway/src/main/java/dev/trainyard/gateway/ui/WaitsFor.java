package dev.trainyard.gateway.ui;

import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.QueueState;
import dev.trainyard.common.view.PullRequestListItem;
import dev.trainyard.common.view.PullRequestRow;
import dev.trainyard.common.view.QueueView;
import dev.trainyard.common.view.TestRunDocument;
import dev.trainyard.common.view.TestingDetails;
import java.util.List;

/** One sentence saying what a waiting PR waits for, from what the queue page already read. */
final class WaitsFor {
  private WaitsFor() {}

  static String of(
      PullRequestListItem item,
      PullRequestRow head,
      TestRunDocument run,
      QueueView queue,
      long testingRuns) {
    return switch (item.state()) {
      case NOT_READY -> notReady(head);
      case PENDING -> pending(queue, testingRuns);
      case TESTING -> testing(run);
      case TESTS_PASSED ->
          run == null || run.details().waitingOnTestRunIds().isEmpty()
              ? "landing on " + queue.branch()
              : "the runs ahead to pass: " + String.join(", ", short8(run));
      case PENDING_FAILURE ->
          "the runs behind its failed run to finish before it is declared failed";
      default -> "";
    };
  }

  private static String notReady(PullRequestRow head) {
    String why =
        head == null || head.view().readiness() == null
            ? null
            : head.view().readiness().notReadyReason();
    return "readiness: " + (why == null ? "the source host has not said it is mergeable" : why);
  }

  private static String pending(QueueView queue, long testingRuns) {
    if (queue.state() == QueueState.PAUSED) {
      return "the queue to be resumed (paused)";
    }
    if (queue.state() == QueueState.DRAINING) {
      return "the queue to take new runs (draining)";
    }
    long slots = queue.settings().concurrency();
    if (queue.settings().mode() == QueueMode.PARALLEL) {
      return "a test slot in its lane ("
          + slots
          + " per lane) or, when its targets span two lanes, those lanes to land";
    }
    return "a test slot (" + testingRuns + " of " + slots + " in use)";
  }

  private static String testing(TestRunDocument run) {
    if (run == null) {
      return "its test branch to be built";
    }
    List<TestingDetails.StatusCheck> checks = run.details().statusChecks();
    List<String> required = run.details().requiredStatuses();
    StringBuilder s = new StringBuilder("CI on " + run.details().testBranch());
    if (checks.isEmpty()) {
      s.append(": no status reported yet");
    } else {
      s.append(": ");
      s.append(
          String.join(
              ", ",
              checks.stream().map(c -> c.context() + " " + c.state().toLowerCase()).toList()));
    }
    if (required != null && !required.isEmpty()) {
      s.append(" (required: ").append(String.join(", ", required)).append(")");
    }
    return s.toString();
  }

  private static List<String> short8(TestRunDocument run) {
    return run.details().waitingOnTestRunIds().stream()
        .map(id -> id.length() > 8 ? id.substring(0, 8) : id)
        .toList();
  }
}
