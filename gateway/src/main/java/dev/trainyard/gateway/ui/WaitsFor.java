package dev.trainyard.gateway.ui;

import dev.trainyard.common.queue.MergeWindow;
import dev.trainyard.common.queue.QueueFreeze;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.QueueState;
import dev.trainyard.common.view.PullRequestListItem;
import dev.trainyard.common.view.PullRequestRow;
import dev.trainyard.common.view.QueueView;
import dev.trainyard.common.view.TestRunDocument;
import dev.trainyard.common.view.TestingDetails;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** One sentence saying what a waiting PR waits for, from what the queue page already read. */
final class WaitsFor {
  private WaitsFor() {}

  static String of(
      PullRequestListItem item,
      PullRequestRow head,
      TestRunDocument run,
      QueueView queue,
      long testingRuns,
      Instant now) {
    return switch (item.state()) {
      case NOT_READY -> notReady(head);
      case PENDING ->
          // the reason the worker decided with the run rules (SCHEDULING.md "Why a PR waits");
          // guessed from the page's reads for a PR beyond the first 500 in line, or a queue
          // written before the worker kept reasons
          queue
              .forecast()
              .waitingReason(item.prNumber())
              .or(() -> dependencies(head == null ? List.of() : head.view().dependsOn()))
              .orElseGet(() -> pending(queue, testingRuns));
      case TESTING -> testing(run);
      case TESTS_PASSED ->
          run == null || run.details().waitingOnTestRunIds().isEmpty()
              ? landingGate(queue, now).orElse("landing on " + queue.branch())
              : "the runs ahead to pass: " + String.join(", ", short8(run));
      case PENDING_FAILURE -> redRun(run);
      default -> "";
    };
  }

  /**
   * What a PR in a red run waits for: a bisection run, for its test results (ConcludeHeads'
   * minute); a chain run, for the runs ahead of and behind it, or for its test results.
   */
  static String redRun(TestRunDocument run) {
    return run != null && TestRunDocument.BISECTION.equals(run.queueType())
        ? "the test results of its red bisection run (up to a minute) before it is judged"
        : "the runs around its red run to finish, or its test results (up to a minute), before"
            + " it is declared failed";
  }

  /**
   * What keeps a passed PR from landing when nothing ahead of it does: a freeze, or being outside
   * every merge window; empty when the queue may land.
   */
  static Optional<String> landingGate(QueueView queue, Instant now) {
    QueueFreeze freeze = queue.freeze();
    if (freeze != null) {
      return Optional.of(
          "the freeze to end ("
              + freeze.reason()
              + (freeze.until() == null
                  ? ", until unfrozen"
                  : ", until " + Links.time(freeze.until()))
              + ")");
    }
    List<MergeWindow> windows = queue.settings().mergeWindows();
    if (windows != null && !windows.isEmpty() && !MergeWindow.anyOpen(windows, now)) {
      return Optional.of(
          "the next merge window"
              + MergeWindow.nextOpening(windows, now)
                  .map(at -> " (opens " + Links.time(at) + ")")
                  .orElse(""));
    }
    return Optional.empty();
  }

  private static String notReady(PullRequestRow head) {
    String why =
        head == null || head.view().readiness() == null
            ? null
            : head.view().readiness().notReadyReason();
    return "readiness: " + (why == null ? "the source host has not said it is mergeable" : why);
  }

  /**
   * The PRs a pending PR depends on that have not landed: it is tested behind them, never ahead, so
   * until they are tested it waits for them rather than for a slot.
   */
  static Optional<String> dependencies(List<Long> waiting) {
    if (waiting.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        "the pull requests it depends on to be tested first: "
            + String.join(", ", waiting.stream().map(n -> "#" + n).toList()));
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
