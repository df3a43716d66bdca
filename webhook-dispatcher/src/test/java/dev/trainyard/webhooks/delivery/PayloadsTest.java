package dev.trainyard.webhooks.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class PayloadsTest {
  @Test
  void smallEventsGoAsTheyAre() {
    String event = "{\"type\":\"pull_request.queued\",\"timestamp\":\"2026-11-22T10:00:00.000Z\"}";

    assertThat(Payloads.body(event, "pull_request.queued", "http://ty")).isEqualTo(event);
  }

  @Test
  void anEventOverTheLimitBecomesAStubWithItsDetailsUrlAndTimestamp() {
    String event =
        "{\"type\":\"test_case.status_changed\",\"http_details_url\":\"http://ty/pr/1\","
            + "\"timestamp\":\"2026-11-22T10:00:00.000Z\",\"blob\":\""
            + "x".repeat(Payloads.LIMIT)
            + "\"}";

    JsonNode stub =
        Json.mapper().readTree(Payloads.body(event, "test_case.status_changed", "http://ty"));

    assertThat(stub.get("truncated").asBoolean()).isTrue();
    assertThat(stub.get("type").asString()).isEqualTo("test_case.status_changed");
    assertThat(stub.get("details_url").asString()).isEqualTo("http://ty/pr/1");
    assertThat(stub.get("timestamp").asString()).isEqualTo("2026-11-22T10:00:00.000Z");
    assertThat(stub.get("original_size").asInt()).isGreaterThan(Payloads.LIMIT);
  }
}
