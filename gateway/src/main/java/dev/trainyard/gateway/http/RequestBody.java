package dev.trainyard.gateway.http;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.common.queue.WireEnum;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * A request body read strictly (API.md §1): every accessor names the offending field in its error,
 * JSON types are exact (no {@code "7"} for 7, no {@code 2.5} for an integer), and an explicit null
 * counts as absent for optional fields. Unknown fields are ignored.
 */
public final class RequestBody {
  public static final long MAX_UINT32 = 4_294_967_295L;
  private static final int MAX_NAME_LENGTH = 255;
  private final JsonNode root;

  private RequestBody(JsonNode root) {
    this.root = root;
  }

  public static RequestBody parse(byte[] bytes) {
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
    return new RequestBody(root);
  }

  /** The node at a dotted path, empty when absent or null; parents must be objects. */
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

  public boolean has(String path) {
    return node(path).isPresent();
  }

  /** True when the field is present with an explicit JSON null. */
  public boolean isExplicitNull(String path) {
    int dot = path.lastIndexOf('.');
    JsonNode parent = dot < 0 ? root : node(path.substring(0, dot)).orElse(null);
    String field = path.substring(dot + 1);
    return parent != null && parent.isObject() && parent.has(field) && parent.get(field).isNull();
  }

  /** A non-empty string of at most 255 characters without control characters. */
  public String name(String path) {
    return optionalName(path)
        .orElseThrow(
            () -> ApiException.badRequest(path + " is required and must be a non-empty string"));
  }

  public Optional<String> optionalName(String path) {
    return optionalString(path)
        .map(
            value -> {
              if (value.isEmpty()
                  || value.length() > MAX_NAME_LENGTH
                  || value.chars().anyMatch(Character::isISOControl)) {
                throw ApiException.badRequest(
                    path
                        + " must be a non-empty string of at most 255 characters without control characters");
              }
              return value;
            });
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

  public QueueKey queueKey(String org) {
    return new QueueKey(org, repo(), name("targetBranch"));
  }

  public RepoRef repo() {
    if (node("repo").filter(JsonNode::isObject).isEmpty()) {
      throw ApiException.badRequest(
          "repo is required and must be an object with host, owner and name");
    }
    return new RepoRef(name("repo.host"), name("repo.owner"), name("repo.name"));
  }

  /**
   * {@code pr.number}: an integer 0..4294967295, also accepted as a string of decimal digits
   * because real CI actions send it that way (the one documented exception to strict types).
   */
  public long prNumber() {
    String error = "pr.number must be an integer between 0 and 4294967295";
    JsonNode n = node("pr.number").orElseThrow(() -> ApiException.badRequest(error));
    BigInteger value;
    if (n.isIntegralNumber()) {
      value = n.bigIntegerValue();
    } else if (n.isString() && n.asString().matches("[0-9]{1,20}")) {
      value = new BigInteger(n.asString());
    } else {
      throw ApiException.badRequest(error);
    }
    if (value.signum() < 0 || value.compareTo(BigInteger.valueOf(MAX_UINT32)) > 0) {
      throw ApiException.badRequest(error);
    }
    return value.longValueExact();
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

  public <E extends Enum<E> & WireEnum> Optional<E> optionalEnum(String path, Class<E> type) {
    return optionalString(path)
        .map(
            text ->
                WireEnum.parse(type, text)
                    .orElseThrow(
                        () ->
                            ApiException.badRequest(
                                path + " must be one of " + WireEnum.choices(type))));
  }

  /** An array of strings (each at most {@code maxLength} characters). */
  public Optional<List<String>> optionalStringList(String path, int maxLength) {
    return node(path)
        .map(
            n -> {
              String error = path + " must be an array of strings";
              if (!n.isArray()) {
                throw ApiException.badRequest(error);
              }
              List<String> values = new ArrayList<>(n.size());
              for (JsonNode item : n) {
                if (!item.isString() || item.asString().length() > maxLength) {
                  throw ApiException.badRequest(error + " of at most " + maxLength + " characters");
                }
                values.add(item.asString());
              }
              return values;
            });
  }
}
