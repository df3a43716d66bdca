package dev.trainyard.webhooks.delivery;

import dev.trainyard.common.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Webhook bodies are the event bodies of API.md §7, except that one over {@value #LIMIT} bytes is
 * replaced by a stub: {@code {type, truncated: true, original_size, details_url, timestamp}} — the
 * event's own {@code http_details_url} when it has one, else the gateway's base URL.
 */
public final class Payloads {
  public static final int LIMIT = 256 * 1024;

  private Payloads() {}

  public static String body(String event, String type, String publicUrl) {
    int size = event.getBytes(StandardCharsets.UTF_8).length;
    if (size <= LIMIT) {
      return event;
    }
    JsonNode node = Json.mapper().readTree(event);
    Map<String, Object> stub = new LinkedHashMap<>();
    stub.put("type", type);
    stub.put("truncated", true);
    stub.put("original_size", size);
    JsonNode details = node.get("http_details_url");
    stub.put("details_url", details != null && details.isString() ? details.asString() : publicUrl);
    JsonNode timestamp = node.get("timestamp");
    stub.put("timestamp", timestamp == null ? null : timestamp.asString());
    return Json.mapper().writeValueAsString(stub);
  }
}
