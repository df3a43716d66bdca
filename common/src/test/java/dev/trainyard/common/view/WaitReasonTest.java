package dev.trainyard.common.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.PrState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * API.md §2 {@code waitingFor} and {@code waitingReason}: what a read says of a PR that waits for a
 * test run, from its queue's forecast (one {@link WaitCode} per PR in line, PRs 1, 2, … in order).
 */
class WaitReasonTest {
  private static final Instant AT = Instant.parse("2026-11-28T10:00:00Z");

  private record Item(long prNumber) {}

  @ParameterizedTest(name = "{0}: PR {1} → {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          tts      | 3 |            | test_slot    | It is next to be tested and starts when a test run ahead of it ends or lands; being tested now: #1, #2.
          wts      | 3 |            | test_slot    | It is next to be tested and starts when a test run ahead of it ends or lands; being tested now: #2.
          ts       | 2 | 11:00:00   | test_slot    | It is next to be tested and starts when a test run ahead of it ends or lands, then waits for more pull requests to batch with, until 2026-11-28T11:00:00.000Z at the latest (batchingMaxWaitTimeMinutes); being tested now: #1.
          ttr      | 3 |            | test_slot    | It is next to be tested and starts when a test run ahead of it ends or lands; being tested now: #1, #2; it runs alone: its predicted risk is too high for a batch with it to pay.
          tS       | 2 |            | test_slot    | It is next to be tested and starts when a test run ahead of it ends or lands; being tested now: #1; it runs alone: it was submitted with noBatch, or a bisection isolated it.
          bb       | 2 | 11:00:00   | batch        | It waits for more pull requests to be tested with it in one batch, until 2026-11-28T11:00:00.000Z at the latest (batchingMaxWaitTimeMinutes).
          tsa      | 3 |            | runs_ahead   | 1 pull request ahead of it is tested first (#2); being tested now: #1.
          tsda     | 4 |            | runs_ahead   | 1 pull request ahead of it is tested first (#2); being tested now: #1.
          tssaaaaq | 8 |            | runs_ahead   | 6 pull requests ahead of it are tested first (#2, #3, #4, #5, #6 and 1 more); being tested now: #1; it runs alone: its predicted risk is too high for a batch with it to pay.
          tsA      | 3 |            | runs_ahead   | 1 pull request ahead of it is tested first (#2); being tested now: #1; it runs alone: it was submitted with noBatch, or a bisection isolated it.
          tlo      | 3 |            | runs_ahead   | An earlier pull request whose impacted targets overlap its own waits too, and it is tested after that one.
          tsscc    | 5 |            | risk_split   | The predicted risks split the next batch: #2, #3 are tested without it, so that a red run costs fewer runs, and it is tested in a later run.
          tsc      | 3 |            | risk_split   | The predicted risks split the next batch: #2 is tested without it, so that a red run costs fewer runs, and it is tested in a later run.
          tthh     | 3 |            | bisection    | A bisection of a failed batch tests it in a run that waits for one of the queue's bisection slots (bisectionConcurrency).
          -d       | 2 |            | dependencies | A pull request it depends on (dependsOn) is neither in a run of the queue's chain nor landed yet.
          pp       | 1 |            | queue_paused | The queue starts no test runs now: it is paused, or a switch of mode waits for its runs to end.
          tl       | 2 |            | lanes        | The lanes its impacted targets overlap have no free test slot.
          ttxL     | 4 |            | lanes        | The lanes its impacted targets overlap take no new run until a pull request that spans them has started.
          ttx      | 3 |            | spans_lanes  | Its impacted targets overlap more than one lane: it starts once their runs have landed, and holds them once it has waited long enough.
          """)
  void aWaitingPrSaysWhyAndWhatIsTestedInstead(
      String codes, long pr, String batchUntil, String waitingFor, String reason) {
    JsonNode placed = placed(forecast(codes, batchUntil), pr, PrState.PENDING);
    assertThat(placed.get("waitingFor").asString()).isEqualTo(waitingFor);
    assertThat(placed.get("waitingReason").asString()).isEqualTo(reason);
  }

  @ParameterizedTest(name = "{0}: PR {1} does not wait")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          tts | 1
          wt  | 1
          -d  | 1
          ts  | 7
          t   | 1
          """)
  void aPrInARunNotReadyOrOutOfLineHasNoWait(String codes, long pr) {
    JsonNode placed = placed(forecast(codes, null), pr, PrState.PENDING);
    assertThat(placed.get("waitingFor").isNull()).isTrue();
    assertThat(placed.get("waitingReason").isNull()).isTrue();
  }

  @ParameterizedTest(name = "a {0} PR has no wait")
  @CsvSource({"merged", "failed", "cancelled"})
  void aConcludedPrHasNoWait(String state) {
    JsonNode placed =
        placed(forecast("ts", null), 2, PrState.valueOf(state.toUpperCase(Locale.ROOT)));
    assertThat(placed.get("waitingFor").isNull()).isTrue();
    assertThat(placed.get("waitingReason").isNull()).isTrue();
  }

  private static JsonNode placed(QueueForecast forecast, long pr, PrState state) {
    return Json.mapper().valueToTree(forecast.place(new Item(pr), pr, state, AT));
  }

  /** PRs 1, 2, … in line with these codes; {@code batchUntil} a time of {@link #AT}'s day. */
  private static QueueForecast forecast(String codes, String batchUntil) {
    List<Long> line = new ArrayList<>();
    List<Instant> etas = new ArrayList<>();
    for (int i = 1; i <= codes.length(); i++) {
      line.add((long) i);
      etas.add(null);
    }
    return QueueForecast.of(
        AT,
        line,
        etas,
        codes,
        batchUntil == null ? null : Instant.parse("2026-11-28T" + batchUntil + "Z"));
  }
}
