package dev.trainyard.common.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.PrState;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class QueueForecastTest {
  private static final Instant AT = Instant.parse("2026-11-28T10:00:00Z");
  private static final QueueForecast FORECAST =
      QueueForecast.of(
          AT,
          List.of(12L, 9L, 130L),
          Arrays.asList(AT.plusSeconds(600), null, AT.plusSeconds(90)),
          "",
          null);

  private record Item(long prNumber, String title) {}

  private static JsonNode placed(long pr, PrState state) {
    return Json.mapper().valueToTree(FORECAST.place(new Item(pr, "t"), pr, state, AT));
  }

  @Test
  void aWaitingPrGetsItsPlaceAndEstimateAConcludedOneNulls() {
    JsonNode first = placed(12, PrState.TESTING);
    assertThat(first.get("queuePosition").asInt()).isEqualTo(1);
    assertThat(first.get("estimatedMergeAt").asString()).isEqualTo("2026-11-28T10:10:00.000Z");
    assertThat(first.propertyNames())
        .containsExactly(
            "prNumber",
            "title",
            "queuePosition",
            "estimatedMergeAt",
            "waitingFor",
            "waitingReason");
    // without codes (a forecast written before they were kept): no one's wait is known
    assertThat(first.get("waitingFor").isNull()).isTrue();
    assertThat(first.get("waitingReason").isNull()).isTrue();

    JsonNode unknown = placed(9, PrState.PENDING);
    assertThat(unknown.get("queuePosition").asInt()).isEqualTo(2);
    assertThat(unknown.get("estimatedMergeAt").isNull()).isTrue();

    JsonNode last = placed(130, PrState.PENDING);
    assertThat(last.get("queuePosition").asInt()).isEqualTo(3);
    assertThat(last.get("estimatedMergeAt").asString()).isEqualTo("2026-11-28T10:01:30.000Z");

    JsonNode merged = placed(12, PrState.MERGED);
    assertThat(merged.get("queuePosition").isNull()).isTrue();
    assertThat(merged.get("estimatedMergeAt").isNull()).isTrue();
    // a number that is a prefix or a suffix of one in line is not in line
    assertThat(placed(13, PrState.PENDING).get("queuePosition").isNull()).isTrue();
    assertThat(placed(1, PrState.PENDING).get("queuePosition").isNull()).isTrue();
    assertThat(placed(30, PrState.PENDING).get("queuePosition").isNull()).isTrue();
  }

  @Test
  void anEmptyForecastPlacesNoOne() {
    assertThat(QueueForecast.NONE.position(1)).isEmpty();
    assertThat(QueueForecast.NONE.estimatedMergeAt(1, AT)).isEmpty();
    QueueForecast noEstimates =
        QueueForecast.of(AT, List.of(4L), Arrays.asList((Instant) null), "", null);
    assertThat(noEstimates.position(4)).contains(1);
    assertThat(noEstimates.estimatedMergeAt(4, AT)).isEmpty();
  }

  @Test
  void anEstimateAlreadyPastReadsAsNow() {
    Instant later = AT.plusSeconds(3600);
    assertThat(FORECAST.estimatedMergeAt(12, later)).contains(later);
    assertThat(FORECAST.prNumbers()).isEqualTo("12,9,130");
    assertThat(FORECAST.etaSeconds()).isEqualTo("600,,90");
  }
}
