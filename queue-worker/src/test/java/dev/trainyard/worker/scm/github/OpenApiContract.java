package dev.trainyard.worker.scm.github;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import dev.trainyard.common.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An OpenAPI description as a contract: an operation must exist for a method and path, a request
 * body must match the operation's request schema, and a response must be one the operation
 * documents, in a media type it documents, with the headers it requires and a JSON body matching
 * that response's schema. Two descriptions are held this way: GitHub's official REST description
 * (npm {@code @octokit/openapi}, installed by {@code .ci/github-fixtures}; OpenAPI 3.0 rules,
 * {@code nullable} included), which the GitHub simulator checks every exchange with, so neither it
 * nor the adapter can use an endpoint, a field or a status GitHub does not have; and trainyard's
 * own {@code docs/openapi.yaml} (OpenAPI 3.1, JSON Schema 2020-12), which the end-to-end suites
 * hold the running server to.
 */
public final class OpenApiContract {
  /** Where {@code .ci/github-fixtures} installs the description, from a module's folder. */
  public static final Path DESCRIPTION =
      Path.of(
          "..", ".ci/.tools/github/node_modules/@octokit/openapi/generated/api.github.com.json");

  /**
   * Answers GitHub gives on any operation though its description lists them only on some: bad
   * credentials, rate limits, and the redirects of a renamed or transferred repository (301 for a
   * read, 307 otherwise), each with a basic error body.
   */
  private static final Set<Integer> GENERAL_ERRORS = Set.of(301, 307, 401, 403, 429);

  private static final Set<String> METHODS =
      Set.of("get", "put", "post", "delete", "options", "head", "patch", "trace");

  /** trainyard's own description, from a module's folder. */
  public static final Path TRAINYARD = Path.of("..", "docs", "openapi.yaml");

  private final JsonNode document;
  private final String name;
  private final Set<Integer> generalErrors;
  private final List<Route> routes = new ArrayList<>();
  private final SchemaRegistry registry;
  private final Map<String, Schema> schemas = new ConcurrentHashMap<>();

  /** One documented operation: its path template as a pattern. */
  private record Route(String method, String template, Pattern pattern, JsonNode operation) {}

  private static OpenApiContract loaded;

  /**
   * GitHub's description, read once per test JVM. Without it the calling test is skipped, unless
   * {@code -Dtrainyard.github-fixtures=required} (CI) makes that a failure.
   */
  public static synchronized OpenApiContract github() throws IOException {
    boolean present = Files.exists(DESCRIPTION);
    if ("required".equals(System.getProperty("trainyard.github-fixtures")) && !present) {
      throw new IllegalStateException(DESCRIPTION + " is missing: run .ci/github-fixtures");
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(
        present, "GitHub's REST description is not installed (.ci/github-fixtures)");
    if (loaded == null) {
      loaded = github(DESCRIPTION);
    }
    return loaded;
  }

  /** GitHub's description read from {@code description} (the benchmarks bring their own copy). */
  public static OpenApiContract github(Path description) throws IOException {
    return new OpenApiContract(
        Json.mapper().readTree(Files.readAllBytes(description)),
        "GitHub's REST API",
        Dialects.getOpenApi30(),
        GENERAL_ERRORS);
  }

  /** trainyard's own description ({@code docs/openapi.yaml}), which documents every answer. */
  public static OpenApiContract trainyard(Path description) throws IOException {
    return new OpenApiContract(
        new tools.jackson.dataformat.yaml.YAMLMapper().readTree(Files.readAllBytes(description)),
        "trainyard's description",
        Dialects.getOpenApi31(),
        Set.of());
  }

  private OpenApiContract(
      JsonNode document,
      String name,
      com.networknt.schema.dialect.Dialect dialect,
      Set<Integer> generalErrors) {
    this.document = document;
    this.name = name;
    this.generalErrors = generalErrors;
    this.registry = SchemaRegistry.withDialect(dialect);
    Iterator<Map.Entry<String, JsonNode>> paths = document.get("paths").properties().iterator();
    while (paths.hasNext()) {
      Map.Entry<String, JsonNode> path = paths.next();
      for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
        if (!METHODS.contains(operation.getKey())) {
          continue; // a field the path's operations share (parameters, summary, servers)
        }
        routes.add(
            new Route(
                operation.getKey().toUpperCase(Locale.ROOT),
                path.getKey(),
                pattern(path.getKey()),
                operation.getValue()));
      }
    }
  }

  /** The documented path template {@code method path} matches, if any. */
  public Optional<String> operation(String method, String path) {
    return route(method, path).map(Route::template);
  }

  /** Whether {@code method path} documents answering {@code status}. */
  public boolean documents(String method, String path, int status) {
    return route(method, path)
        .map(r -> r.operation().path("responses").has(Integer.toString(status)))
        .orElse(false);
  }

  /** The description itself. */
  public JsonNode document() {
    return document;
  }

  /** Every documented operation as {@code METHOD path-template}. */
  public Set<String> operations() {
    Set<String> all = new TreeSet<>();
    routes.forEach(r -> all.add(r.method() + " " + r.template()));
    return all;
  }

  /** What is wrong with a request: no such operation, or a body its schema refuses. */
  public List<String> checkRequest(String method, String path, JsonNode body) {
    Optional<Route> route = route(method, path);
    if (route.isEmpty()) {
      return List.of(method + " " + path + " is no operation of " + name);
    }
    JsonNode schema =
        route.get().operation().path("requestBody").path("content").path("application/json");
    if (body == null || schema.isMissingNode()) {
      return body != null && !body.isNull() && schema.isMissingNode()
          ? List.of(method + " " + route.get().template() + " takes no JSON body")
          : List.of();
    }
    return validate(key(route.get(), "request"), schema.path("schema"), body);
  }

  /** What is wrong with a JSON response: a status the operation does not document, or its body. */
  public List<String> checkResponse(String method, String path, int status, JsonNode body) {
    Optional<Route> route = route(method, path);
    if (route.isEmpty()) {
      return List.of(method + " " + path + " is no operation of " + name);
    }
    JsonNode response = route.get().operation().path("responses").path(Integer.toString(status));
    if (response.isMissingNode() && generalErrors.contains(status)) {
      // GitHub answers bad credentials and rate limits on every operation, though the description
      // lists them only on some: the body is then its basic error
      return validate(
          key(route.get(), status + " response"),
          document.at("/components/schemas/basic-error"),
          body);
    }
    if (response.isMissingNode()) {
      return List.of(method + " " + route.get().template() + " never answers " + status);
    }
    response = resolved(response);
    JsonNode schema = response.path("content").path("application/json").path("schema");
    if (schema.isMissingNode() || body == null || body.isNull()) {
      return List.of();
    }
    return validate(key(route.get(), status + " response"), schema, body);
  }

  /**
   * What is wrong with a response of any type: a status the operation does not document, a media
   * type its answer does not have, a header it requires missing or one whose value its schema
   * refuses, a body where it documents none or none where it documents one, or a JSON body its
   * schema refuses.
   *
   * @param headers the response's headers, lower-case names to their first value
   */
  public List<String> checkResponse(
      String method, String path, int status, Map<String, String> headers, String body) {
    Optional<Route> route = route(method, path);
    if (route.isEmpty()) {
      return List.of(method + " " + path + " is no operation of " + name);
    }
    String what = key(route.get(), Integer.toString(status));
    JsonNode response = route.get().operation().path("responses").path(Integer.toString(status));
    if (response.isMissingNode()) {
      return List.of(method + " " + route.get().template() + " never answers " + status);
    }
    response = resolved(response);
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, JsonNode> header : response.path("headers").properties()) {
      JsonNode declared = resolved(header.getValue());
      String value = headers.get(header.getKey().toLowerCase(Locale.ROOT));
      if (value == null) {
        if (declared.path("required").asBoolean(false)) {
          problems.add(what + " lacks the header " + header.getKey());
        }
      } else {
        problems.addAll(
            validate(what + " header " + header.getKey(), declared.path("schema"), scalar(value)));
      }
    }
    JsonNode content = response.path("content");
    if (content.isEmpty()) {
      if (!body.isEmpty()) {
        problems.add(what + " documents no body but answers: " + body);
      }
      return problems;
    }
    if (body.isEmpty()) {
      problems.add(what + " answers no body, documented: " + content.propertyNames());
      return problems;
    }
    String type = headers.getOrDefault("content-type", "").split(";")[0].strip();
    type = type.toLowerCase(Locale.ROOT);
    if (!content.has(type)) {
      problems.add(what + " answers " + type + ", documented: " + content.propertyNames());
      return problems;
    }
    if (type.equals("application/json")) {
      JsonNode json;
      try {
        json = Json.mapper().readTree(body);
      } catch (RuntimeException e) {
        problems.add(what + " answers no JSON: " + body);
        return problems;
      }
      problems.addAll(validate(what + " response", content.path(type).path("schema"), json));
    }
    return problems;
  }

  /** A header's value as JSON: a number when it reads as one, else the text. */
  private static JsonNode scalar(String value) {
    try {
      return Json.mapper().getNodeFactory().numberNode(Long.parseLong(value.strip()));
    } catch (NumberFormatException notANumber) {
      return Json.mapper().getNodeFactory().stringNode(value);
    }
  }

  /** {@code node}, or the schema its {@code $ref} names (followed while it names another). */
  public JsonNode resolved(JsonNode node) {
    JsonNode schema = node;
    while (schema.has("$ref")) {
      schema = pointer(schema.get("$ref").asString());
    }
    return schema;
  }

  /**
   * What is wrong with an event delivered to a subscriber: no webhook of that name, a header its
   * parameters require missing, or a body its schema refuses.
   *
   * @param headers the delivery's header names, lower case
   */
  public List<String> checkWebhook(String webhook, Set<String> headers, String body) {
    JsonNode post = document.path("webhooks").path(webhook).path("post");
    if (post.isMissingNode()) {
      return List.of("no webhook " + webhook + " in " + name);
    }
    List<String> problems = new ArrayList<>();
    for (JsonNode parameter : post.path("parameters")) {
      JsonNode declared = resolved(parameter);
      String header = declared.path("name").asString("");
      if (declared.path("in").asString("").equals("header")
          && declared.path("required").asBoolean(false)
          && !headers.contains(header.toLowerCase(Locale.ROOT))) {
        problems.add("webhook " + webhook + " lacks the header " + header);
      }
    }
    JsonNode event;
    try {
      event = Json.mapper().readTree(body);
    } catch (RuntimeException e) {
      return List.of("webhook " + webhook + " delivered no JSON: " + body);
    }
    JsonNode schema =
        post.path("requestBody").path("content").path("application/json").path("schema");
    problems.addAll(validate("webhook " + webhook + " event", schema, event));
    return problems;
  }

  /**
   * GitHub's documented example of the {@code status} answer to {@code method path} (a deep copy,
   * for the simulator to fill in), if the description has one.
   */
  public Optional<JsonNode> example(String method, String path, int status) {
    return route(method, path)
        .map(
            r -> {
              JsonNode examples =
                  r.operation()
                      .path("responses")
                      .path(Integer.toString(status))
                      .path("content")
                      .path("application/json")
                      .path("examples");
              Iterator<JsonNode> all = examples.values().iterator();
              if (!all.hasNext()) {
                return null;
              }
              JsonNode example = all.next();
              if (example.has("$ref")) {
                example = pointer(example.get("$ref").asString());
              }
              return example.path("value").deepCopy();
            });
  }

  private static String key(Route route, String what) {
    return route.method() + " " + route.template() + " " + what;
  }

  /** What {@code schemaNode} (with the document's components) refuses in {@code body}. */
  private List<String> validate(String key, JsonNode schemaNode, JsonNode body) {
    Schema schema =
        schemas.computeIfAbsent(
            key,
            k -> {
              // the operation's schema, under a root that holds the components its $refs name
              ObjectNode root = Json.mapper().createObjectNode();
              root.set("components", document.get("components"));
              root.putArray("allOf").add(schemaNode);
              return registry.getSchema(
                  SchemaLocation.of("https://contract.invalid/openapi.json"), root);
            });
    List<String> problems = new ArrayList<>();
    for (Error error : schema.validate(body)) {
      problems.add(key + ": " + error.getInstanceLocation() + " " + error.getMessage());
    }
    return problems;
  }

  private Optional<Route> route(String method, String path) {
    String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
    return routes.stream()
        .filter(r -> r.method().equals(method) && r.pattern().matcher(bare).matches())
        // the most literal template wins (/pulls/{n}/merge over /pulls/{n}/{x}; and
        // /commits/{ref}/check-runs over /commits/{ref}, whose last {ref} takes slashes)
        .min(
            java.util.Comparator.comparingInt((Route r) -> r.template().split("\\{").length)
                .thenComparing(r -> -r.template().length()));
  }

  private JsonNode pointer(String ref) {
    return document.at(ref.substring(1));
  }

  /** A template's pattern: a {@code {param}} is one segment, or the rest when it ends the path. */
  private static Pattern pattern(String template) {
    StringBuilder regex = new StringBuilder();
    String[] parts = template.split("(?=\\{)|(?<=\\})");
    for (int i = 0; i < parts.length; i++) {
      String part = parts[i];
      if (part.startsWith("{")) {
        boolean last = i == parts.length - 1;
        regex.append(last && part.equals("{ref}") ? ".+" : "[^/]+");
      } else {
        regex.append(Pattern.quote(part));
      }
    }
    return Pattern.compile(regex.toString());
  }
}
