package dev.trainyard.common.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class QueueForecastTest {
  private static final Instant AT = Instant.parse("2026-11-28T10:00:00Z");
  private static final QueueForecast FORECAST =
      QueueForecast.of(AT, List.of(12L, 9L), Arrays.asList(AT.plusSeconds(600), null));

  private static ObjectNode item(long pr, String state) {
    return Json.mapper().createObjectNode().put("prNumber", pr).put("state", state);
  }

  @Test
  void aWaitingPrGetsItsPlaceAndEstimateAConcludedOneNulls() {
    ObjectNode first = FORECAST.place(item(12, "testing"), AT);
    assertThat(first.get("queuePosition").asInt()).isEqualTo(1);
    assertThat(first.get("estimatedMergeAt").asString()).isEqualTo("2026-11-28T10:10:00.000Z");

    ObjectNode unknown = FORECAST.place(item(9, "pending"), AT);
    assertThat(unknown.get("queuePosition").asInt()).isEqualTo(2);
    assertThat(unknown.get("estimatedMergeAt").isNull()).isTrue();

    ObjectNode merged = FORECAST.place(item(12, "merged"), AT);
    assertThat(merged.get("queuePosition").isNull()).isTrue();
    assertThat(merged.get("estimatedMergeAt").isNull()).isTrue();
    assertThat(FORECAST.place(item(77, "pending"), AT).get("queuePosition").isNull()).isTrue();
  }

  @Test
  void anEstimateAlreadyPastReadsAsNow() {
    Instant later = AT.plusSeconds(3600);
    assertThat(FORECAST.estimatedMergeAt(12, later)).contains(later);
    assertThat(FORECAST.prNumbers()).isEqualTo("12,9");
    assertThat(FORECAST.etaSeconds()).isEqualTo("600,");
  }
}
