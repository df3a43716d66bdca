package dev.trainyard.common.view;

import dev.trainyard.common.json.Timestamps;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The sentence that says why a PR waits for a test run (API.md §2 {@code waitingReason}), from its
 * queue's forecast: its {@link WaitCode} and what is ahead of it in line (what is tested instead).
 * In parallel mode the PRs in runs ahead may be in other lanes, so its sentences name none.
 */
final class WaitReason {
  /** How many PR numbers a sentence names before it counts the rest. */
  private static final int NAMED = 5;

  private WaitReason() {}

  static String sentence(QueueForecast forecast, int index, WaitCode wait) {
    String why =
        switch (wait.reason()) {
          case TEST_SLOT ->
              wait == WaitCode.TEST_SLOT_PRICED
                  ? "It is next to be tested and starts once enough test runs ahead of it have"
                      + " passed or left: they may still fail, and while CI spends past the queue's"
                      + " budget (ciBudgetMinutesPerMerge) a run this far behind them is more likely"
                      + " to be thrown away than worth its CI minutes"
                      + testing(forecast, index)
                  : "It is next to be tested and starts when a test run ahead of it ends or lands"
                      + batchUntil(forecast, ", then waits for more pull requests to batch with")
                      + testing(forecast, index);
          case BATCH ->
              "It waits for more pull requests to be tested with it in one batch"
                  + batchUntil(forecast, "");
          case RUNS_AHEAD -> {
            if (wait == WaitCode.OVERLAPPED) {
              yield "An earlier pull request whose impacted targets overlap its own waits too, and it"
                  + " is tested after that one";
            }
            List<Long> ahead = ahead(forecast, index, WaitCode::goesFirst);
            yield (ahead.size() == 1
                    ? "1 pull request ahead of it is tested first ("
                    : ahead.size() + " pull requests ahead of it are tested first (")
                + named(ahead)
                + ")"
                + testing(forecast, index);
          }
          case RISK_SPLIT -> {
            List<Long> first =
                ahead(
                    forecast,
                    index,
                    c -> c.reason() == WaitingFor.TEST_SLOT || c.reason() == WaitingFor.BATCH);
            yield "The predicted risks split the next batch: "
                + (first.isEmpty() ? "the pull requests before it are" : named(first))
                + (first.size() == 1 ? " is" : first.size() > 1 ? " are" : "")
                + " tested without it, so that a red run costs fewer runs, and it is tested in a"
                + " later run";
          }
          case BISECTION ->
              "A bisection of a failed batch tests it in a run that waits for one of the queue's"
                  + " bisection slots (bisectionConcurrency)";
          case DEPENDENCIES ->
              "A pull request it depends on (dependsOn) is neither in a run of the queue's chain nor"
                  + " landed yet";
          case QUEUE_PAUSED ->
              "The queue starts no test runs now: it is paused, or a switch of mode waits for its"
                  + " runs to end";
          case LANES ->
              wait == WaitCode.LANES_HELD
                  ? "The lanes its impacted targets overlap take no new run until a pull request"
                      + " that spans them has started"
                  : "The lanes its impacted targets overlap have no free test slot";
          case SPANS_LANES ->
              "Its impacted targets overlap more than one lane: it starts once their runs have"
                  + " landed, and holds them once it has waited long enough";
        };
    return why
        + switch (wait.alone()) {
          case NO -> "";
          case BY_FLAG ->
              "; it runs alone: it was submitted with noBatch, or a bisection isolated it";
          case BY_RISK ->
              "; it runs alone: its predicted risk is too high for a batch with it to pay";
        }
        + ".";
  }

  /** ", until … at the latest": when the next batch stops waiting for more PRs, if one waits. */
  private static String batchUntil(QueueForecast forecast, String lead) {
    return forecast.batchUntil() == null
        ? ""
        : lead
            + ", until "
            + Timestamps.format(forecast.batchUntil())
            + " at the latest (batchingMaxWaitTimeMinutes)";
  }

  /** "; being tested now: #1, #2": the PRs ahead of it in runs, what is tested instead of it. */
  private static String testing(QueueForecast forecast, int index) {
    List<Long> inRuns = ahead(forecast, index, c -> c == WaitCode.IN_RUN);
    return inRuns.isEmpty() ? "" : "; being tested now: " + named(inRuns);
  }

  /**
   * The PRs before the {@code index}th in line whose code is {@code which}: one scan of the
   * forecast's text up to it, parsing only those numbers (it runs on every read of a waiting PR).
   */
  private static List<Long> ahead(QueueForecast forecast, int index, Predicate<WaitCode> which) {
    List<Long> ahead = new ArrayList<>();
    String numbers = forecast.prNumbers();
    int at = 0;
    for (int i = 0; i < index && at < numbers.length(); i++) {
      int end = numbers.indexOf(',', at);
      end = end < 0 ? numbers.length() : end;
      if (which.test(forecast.waitCode(i))) {
        ahead.add(Long.parseLong(numbers, at, end, 10));
      }
      at = end + 1;
    }
    return ahead;
  }

  private static String named(List<Long> numbers) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < Math.min(NAMED, numbers.size()); i++) {
      text.append(i == 0 ? "" : ", ").append('#').append(numbers.get(i));
    }
    if (numbers.size() > NAMED) {
      text.append(" and ").append(numbers.size() - NAMED).append(" more");
    }
    return text.toString();
  }
}
