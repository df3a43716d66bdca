package dev.trainyard.bench.github;

import dev.trainyard.common.json.Json;
import dev.trainyard.worker.scm.github.Webhooks;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * GitHub's published webhook payloads (npm {@code @octokit/webhooks-examples}, installed by {@code
 * .ci/github-fixtures}) as the simulator's delivery templates: for each event and action the first
 * example that names an installation, as an App receives it, else the first at all. The
 * standalone's tests pick theirs the same way ({@code GithubAppIT}); they read the file through a
 * test-only helper of the standalone module, which the bench does not depend on.
 */
final class WebhookExamples implements Webhooks.Templates {
  private final Map<String, ObjectNode> byEventAndAction = new HashMap<>();

  WebhookExamples(Path index) throws IOException {
    for (JsonNode type : Json.mapper().readTree(index.toFile())) {
      String event = type.get("name").asString();
      for (JsonNode example : type.get("examples")) {
        String key = event + "." + example.path("action").asString("");
        ObjectNode known = byEventAndAction.get(key);
        if (known == null || (!known.has("installation") && example.has("installation"))) {
          byEventAndAction.put(key, (ObjectNode) example);
        }
      }
    }
  }

  @Override
  public ObjectNode payload(String event, String action) {
    ObjectNode example = byEventAndAction.get(event + "." + action);
    if (example == null) {
      throw new IllegalStateException("GitHub publishes no example of " + event + "." + action);
    }
    return example;
  }
}
