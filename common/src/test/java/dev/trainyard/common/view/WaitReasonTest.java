package dev.trainyard.common.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.PrState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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

  @ParameterizedTest(name = "{0}: PR {1} → {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          tts    | 3 | test_slot    | It is next to be tested and starts when a test run ahead of it ends; being tested now: #1, #2.
          ttr    | 3 | test_slot    | It is next to be tested and starts when a test run ahead of it ends; being tested now: #1, #2; it runs alone: its predicted risk is too high for a batch with it to pay.
          tS     | 2 | test_slot    | It is next to be tested and starts when a test run ahead of it ends; being tested now: #1; it runs alone: it was submitted with noBatch, or a bisection isolated it.
          bb     | 2 | batch        | It waits for more pull requests to be tested with it in one batch, until 2026-11-28T11:00:00.000Z at the latest (batchingMaxWaitTimeMinutes).
          tsa    | 3 | runs_ahead   | 1 pull request ahead of it is tested first (#2); being tested now: #1.
          tssaaaaq | 8 | runs_ahead | 6 pull requests ahead of it are tested first (#2, #3, #4, #5, #6 and 1 more); being tested now: #1; it runs alone: its predicted risk is too high for a batch with it to pay.
          tsscc  | 5 | risk_split   | The predicted risks split the next batch: #2, #3 are tested first without it, so that a red run costs fewer runs, and it is tested after them.
          -d     | 2 | dependencies | A pull request it depends on is neither being tested nor landed yet (dependsOn).
          pp     | 1 | queue_paused | The queue starts no test runs now: it is paused, or a switch of mode waits for its runs to end.
          tl     | 2 | lanes        | The lanes its impacted targets overlap have no free test slot; being tested now: #1.
          """)
  void aWaitingPrSaysWhyAndWhatIsTestedInstead(
      String codes, long pr, String waitingFor, String reason) {
    JsonNode placed = placed(codes, pr);
    assertThat(placed.get("waitingFor").asString()).isEqualTo(waitingFor);
    assertThat(placed.get("waitingReason").asString()).isEqualTo(reason);
  }

  @ParameterizedTest(name = "{0}: PR {1} does not wait")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          tts | 1
          -d  | 1
          ts  | 7
          t   | 1
          """)
  void aPrInARunNotReadyOrOutOfLineHasNoWait(String codes, long pr) {
    JsonNode placed = placed(codes, pr);
    assertThat(placed.get("waitingFor").isNull()).isTrue();
    assertThat(placed.get("waitingReason").isNull()).isTrue();
  }

  @ParameterizedTest(name = "a {0} PR has no wait")
  @CsvSource({"merged", "failed", "cancelled"})
  void aConcludedPrHasNoWait(String state) {
    JsonNode placed =
        Json.mapper()
            .valueToTree(
                forecast("ts").place(new Item(2), 2, PrState.valueOf(state.toUpperCase()), AT));
    assertThat(placed.get("waitingFor").isNull()).isTrue();
  }

  private static JsonNode placed(String codes, long pr) {
    return Json.mapper().valueToTree(forecast(codes).place(new Item(pr), pr, PrState.PENDING, AT));
  }

  private static QueueForecast forecast(String codes) {
    List<Long> line = new ArrayList<>();
    List<Instant> etas = new ArrayList<>();
    for (int i = 1; i <= codes.length(); i++) {
      line.add((long) i);
      etas.add(null);
    }
    return QueueForecast.of(
        AT, line, etas, codes, codes.contains("b") ? AT.plusSeconds(3600) : null);
  }
}
