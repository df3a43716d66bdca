package dev.trainyard.common.json;

import dev.trainyard.common.queue.RepoNames;
import dev.trainyard.common.queue.WireEnum;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * A JSON request body read strictly (API.md §1), shared by every service that takes one: each
 * accessor names the offending field in its {@link InvalidRequestException}, JSON types are exact
 * (no {@code "7"} for 7, no {@code 2.5} for an integer), an explicit null counts as absent for
 * optional fields, and unknown fields are ignored. Services extend it with their own compound
 * fields (a repository, a queue key).
 */
public class StrictJson {
  public static final int MAX_NAME = 255;
  private final JsonNode root;

  protected StrictJson(JsonNode root) {
    this.root = root;
  }

  /** The body's JSON object; a 400 naming the syntax error, or saying it is not an object. */
  protected static JsonNode readObject(byte[] bytes) {
    if (!Utf8.isWellFormed(bytes)) {
      throw new InvalidRequestException("the request body is not valid JSON: it is not UTF-8");
    }
    JsonNode root;
    try {
      root = Json.mapper().readTree(bytes);
    } catch (JacksonException e) {
      String detail = e.getOriginalMessage().split("\\R| \\(start marker|: was expecting")[0];
      throw new InvalidRequestException("the request body is not valid JSON: " + detail);
    }
    if (root == null || !root.isObject()) {
      throw new InvalidRequestException("the request body must be a JSON object");
    }
    return root;
  }

  /** The node at a dotted path, empty when absent or null; parents must be objects. */
  public Optional<JsonNode> node(String path) {
    JsonNode current = root;
    String[] parts = path.split("\\.");
    for (int i = 0; i < parts.length; i++) {
      if (i > 0 && !current.isObject()) {
        throw new InvalidRequestException(
            String.join(".", Arrays.copyOf(parts, i)) + " must be an object");
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

  /** How a service names a repository: its own record of host, owner and name. */
  @FunctionalInterface
  protected interface RepoOf<R> {
    R of(String host, String owner, String name);
  }

  /**
   * {@code repo}: a required object whose host, owner and name pass {@link RepoNames} (they become
   * paths in git repositories).
   */
  protected <R> R repo(RepoOf<R> repoOf) {
    if (node("repo").filter(JsonNode::isObject).isEmpty()) {
      throw new InvalidRequestException(
          "repo is required and must be an object with host, owner and name");
    }
    return repoOf.of(
        RepoNames.host("repo.host", name("repo.host")),
        RepoNames.segment("repo.owner", name("repo.owner")),
        RepoNames.segment("repo.name", name("repo.name")));
  }

  /** A required git branch name ({@link RepoNames#branch}). */
  public String branch(String path) {
    return RepoNames.branch(path, name(path));
  }

  public Optional<String> optionalBranch(String path) {
    return optionalName(path).map(value -> RepoNames.branch(path, value));
  }

  /** A non-empty string of at most 255 characters without control characters. */
  public String name(String path) {
    return optionalName(path)
        .orElseThrow(
            () ->
                new InvalidRequestException(path + " is required and must be a non-empty string"));
  }

  public Optional<String> optionalName(String path) {
    return optionalString(path).map(value -> checkName(path, value));
  }

  /** {@code value} when it is a non-empty string of at most 255 characters without controls. */
  public static String checkName(String path, String value) {
    if (value.isEmpty()
        || value.length() > MAX_NAME
        || value.chars().anyMatch(Character::isISOControl)) {
      throw new InvalidRequestException(
          path
              + " must be a non-empty string of at most 255 characters without control characters");
    }
    return value;
  }

  public Optional<String> optionalString(String path) {
    return node(path)
        .map(
            n -> {
              if (!n.isString()) {
                throw new InvalidRequestException(path + " must be a string");
              }
              return n.asString();
            });
  }

  public Optional<Long> optionalLong(String path, long min, long max) {
    return node(path)
        .map(
            n -> {
              String error = path + " must be an integer between " + min + " and " + max;
              if (!n.isIntegralNumber()) {
                throw new InvalidRequestException(error);
              }
              BigInteger value = n.bigIntegerValue();
              if (value.compareTo(BigInteger.valueOf(min)) < 0
                  || value.compareTo(BigInteger.valueOf(max)) > 0) {
                throw new InvalidRequestException(error);
              }
              return value.longValueExact();
            });
  }

  /** A number from 0 to 1, both included (a probability). */
  public Optional<Double> optionalFraction(String path) {
    return node(path)
        .map(
            n -> {
              if (!n.isNumber() || !(n.doubleValue() >= 0 && n.doubleValue() <= 1)) {
                throw new InvalidRequestException(path + " must be a number between 0 and 1");
              }
              return n.doubleValue();
            });
  }

  public Optional<Boolean> optionalBoolean(String path) {
    return node(path)
        .map(
            n -> {
              if (!n.isBoolean()) {
                throw new InvalidRequestException(path + " must be true or false");
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
                            new InvalidRequestException(
                                path + " must be one of " + WireEnum.choices(type))));
  }

  /** An array of strings (each at most {@code maxLength} characters). */
  public Optional<List<String>> optionalStringList(String path, int maxLength) {
    return node(path)
        .map(
            n -> {
              String error = path + " must be an array of strings";
              if (!n.isArray()) {
                throw new InvalidRequestException(error);
              }
              List<String> values = new ArrayList<>(n.size());
              for (JsonNode item : n) {
                if (!item.isString() || item.asString().length() > maxLength) {
                  throw new InvalidRequestException(
                      error + " of at most " + maxLength + " characters");
                }
                values.add(item.asString());
              }
              return values;
            });
  }
}
