package dev.trainyard.flaky.http;

import dev.trainyard.common.json.InvalidRequestException;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.json.StrictJson;
import dev.trainyard.flaky.repo.Repo;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** A flaky-tests request body, read strictly ({@link StrictJson}), with its {@code repo}. */
public final class JsonBody extends StrictJson {
  private JsonBody(JsonNode root) {
    super(root);
  }

  public static JsonBody parse(byte[] bytes) {
    return new JsonBody(readObject(bytes));
  }

  /** The {@code repo} part of an upload: a JSON object with host, owner and name. */
  public static Repo repoPart(String json) {
    JsonNode node;
    try {
      node = Json.mapper().readTree(json);
    } catch (JacksonException e) {
      node = null;
    }
    if (node == null || !node.isObject()) {
      throw new InvalidRequestException(
          "repo must be a JSON object with host, owner and name, e.g."
              + " {\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\"rocket\"}");
    }
    return new JsonBody(Json.mapper().createObjectNode().set("repo", node)).repo();
  }

  public Repo repo() {
    return repo(Repo::new);
  }
}
