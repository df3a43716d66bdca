package dev.trainyard.flaky.http;

import dev.trainyard.common.json.Json;
import dev.trainyard.flaky.repo.Repo;
import java.math.BigInteger;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * A JSON request body read strictly (API.md §1): exact JSON types, errors that name the field, an
 * explicit null counted as absent, unknown fields ignored.
 */
public final class JsonBody {
  public static final int MAX_NAME = 255;
  private final JsonNode root;

  private JsonBody(JsonNode root) {
    this.root = root;
  }

  public static JsonBody parse(byte[] bytes) {
    JsonNode root;
    try {
      root = Json.mapper().readTree(bytes);
    } catch (JacksonException e) {
      String detail = e.getOriginalMessage().split("\\R| \\(start marker|: was expecting")[0];
      throw ApiException.badRequest("the request body is not valid JSON: " + detail);
    }
    if (root == null || !root.isObject()) {
      throw ApiException.badRequest("the request body must be a JSON object");
    }
    return new JsonBody(root);
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
      throw ApiException.badRequest(
          "repo must be a JSON object with host, owner and name, e.g."
              + " {\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\"rocket\"}");
    }
    return new JsonBody(Json.mapper().createObjectNode().set("repo", node)).repo();
  }

  public Optional<JsonNode> node(String path) {
    JsonNode current = root;
    String[] parts = path.split("\\.");
    for (int i = 0; i < parts.length; i++) {
      if (i > 0 && !current.isObject()) {
        throw ApiException.badRequest(
            String.join(".", java.util.Arrays.copyOf(parts, i)) + " must be an object");
      }
      current = current.get(parts[i]);
      if (current == null || current.isNull()) {
        return Optional.empty();
      }
    }
    return Optional.of(current);
  }

  public Optional<String> optionalString(String path) {
    return node(path)
        .map(
            n -> {
              if (!n.isString()) {
                throw ApiException.badRequest(path + " must be a string");
              }
              return n.asString();
            });
  }

  /** A non-empty string of at most 255 characters without control characters. */
  public String name(String path) {
    String value =
        optionalString(path)
            .orElseThrow(
                () ->
                    ApiException.badRequest(path + " is required and must be a non-empty string"));
    return checkName(path, value);
  }

  public static String checkName(String path, String value) {
    if (value.isEmpty()
        || value.length() > MAX_NAME
        || value.chars().anyMatch(Character::isISOControl)) {
      throw ApiException.badRequest(
          path
              + " must be a non-empty string of at most 255 characters without control characters");
    }
    return value;
  }

  public Repo repo() {
    if (node("repo").filter(JsonNode::isObject).isEmpty()) {
      throw ApiException.badRequest(
          "repo is required and must be an object with host, owner and name");
    }
    return new Repo(name("repo.host"), name("repo.owner"), name("repo.name"));
  }

  public Optional<Long> optionalLong(String path, long min, long max) {
    return node(path)
        .map(
            n -> {
              String error = path + " must be an integer between " + min + " and " + max;
              if (!n.isIntegralNumber()) {
                throw ApiException.badRequest(error);
              }
              BigInteger value = n.bigIntegerValue();
              if (value.compareTo(BigInteger.valueOf(min)) < 0
                  || value.compareTo(BigInteger.valueOf(max)) > 0) {
                throw ApiException.badRequest(error);
              }
              return value.longValueExact();
            });
  }

  public Optional<Boolean> optionalBoolean(String path) {
    return node(path)
        .map(
            n -> {
              if (!n.isBoolean()) {
                throw ApiException.badRequest(path + " must be true or false");
              }
              return n.booleanValue();
            });
  }
}
