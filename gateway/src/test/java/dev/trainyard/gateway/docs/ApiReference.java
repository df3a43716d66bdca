package dev.trainyard.gateway.docs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * {@code docs/api.md}, written from {@code docs/openapi.yaml}: per tag, each operation with its
 * access, request fields, answers and the fields of its 200; then the webhook events. The reference
 * a person reads is thus the document the server is held to.
 */
final class ApiReference {
  static final String REGENERATE =
      "./mvnw -B -pl gateway -am test -Dtest=ApiReferenceTest -Dtrainyard.docs=write"
          + " -Dsurefire.failIfNoSpecifiedTests=false";

  private final OpenApiDocument openApi;
  private final JsonNode document;
  private final StringBuilder out = new StringBuilder();

  ApiReference(OpenApiDocument openApi) {
    this.openApi = openApi;
    this.document = openApi.root();
  }

  String render() {
    line("# API reference");
    line("");
    line(
        "<!-- written from openapi.yaml by the gateway's ApiReferenceTest, which fails when the two"
            + " differ; regenerate with: "
            + REGENERATE
            + " -->");
    line("");
    line(
        "Generated from [`openapi.yaml`](openapi.yaml) (OpenAPI "
            + document.get("openapi").asString()
            + "), which a running gateway also serves at `/v1/openapi.yaml` and `/v1/openapi.json`"
            + " and renders at `/ui/api`. The rules every endpoint follows (errors, limits, retries,"
            + " pagination) are in [the wire contract](design/API.md).");
    line("");
    line(document.path("info").path("description").asString("").strip());
    line("");
    line("## Authentication");
    line("");
    for (Map.Entry<String, JsonNode> scheme :
        document.path("components").path("securitySchemes").properties()) {
      line(
          "- `"
              + scheme.getKey()
              + "`: header `"
              + scheme.getValue().path("name").asString()
              + "`. "
              + oneLine(scheme.getValue().path("description").asString("")));
    }
    line("");
    Map<String, List<OpenApiDocument.Operation>> byTag = new LinkedHashMap<>();
    for (JsonNode tag : document.path("tags")) {
      byTag.put(tag.get("name").asString(), new ArrayList<>());
    }
    for (OpenApiDocument.Operation op : openApi.operations()) {
      String tag = op.spec().path("tags").path(0).asString("other");
      byTag.computeIfAbsent(tag, t -> new ArrayList<>()).add(op);
    }
    for (Map.Entry<String, List<OpenApiDocument.Operation>> tag : byTag.entrySet()) {
      if (tag.getValue().isEmpty()) {
        continue;
      }
      line("## " + capitalised(tag.getKey()));
      line("");
      for (OpenApiDocument.Operation op : tag.getValue()) {
        operation(op.method().toLowerCase(), op.path(), op.spec());
      }
    }
    webhooks();
    return out.toString();
  }

  private void operation(String method, String path, JsonNode op) {
    line(
        "### `"
            + method.toUpperCase()
            + " "
            + path
            + "` ("
            + op.path("operationId").asString()
            + ")");
    line("");
    line(op.path("summary").asString("").strip());
    line("");
    String description = op.path("description").asString("").strip();
    if (!description.isEmpty()) {
      line(description);
      line("");
    }
    JsonNode security = op.has("security") ? op.get("security") : document.path("security");
    line(
        "Access: "
            + (security.isEmpty()
                ? "public"
                : security
                    .valueStream()
                    .flatMap(s -> s.propertyNames().stream())
                    .map(s -> "`" + s + "`")
                    .collect(Collectors.joining(" or ")))
            + ".");
    line("");
    List<String> headers = new ArrayList<>();
    for (JsonNode parameter : op.path("parameters")) {
      JsonNode p = resolve(parameter);
      headers.add(
          "`"
              + p.path("name").asString()
              + "` ("
              + p.path("in").asString()
              + (p.path("required").asBoolean() ? ", required" : "")
              + ")");
    }
    if (!headers.isEmpty()) {
      line("Parameters: " + String.join(", ", headers) + ".");
      line("");
    }
    JsonNode content = resolve(op.path("requestBody")).path("content");
    for (Map.Entry<String, JsonNode> media : content.properties()) {
      line("Request (`" + media.getKey() + "`):");
      line("");
      fields(media.getValue().path("schema"));
    }
    line("| Status | Answer |");
    line("|---|---|");
    for (Map.Entry<String, JsonNode> response : op.path("responses").properties()) {
      JsonNode r = resolve(response.getValue());
      line(
          "| "
              + response.getKey()
              + " | "
              + cell(
                  r.path("description").asString("")
                      + media(r.path("content"))
                      + retryAfter(r.path("headers")))
              + " |");
    }
    line("");
    JsonNode ok = resolve(op.path("responses").path("200")).path("content");
    JsonNode json = ok.path("application/json").path("schema");
    if (!json.isMissingNode() && !resolve(json).path("properties").isEmpty()) {
      line("Fields of the 200 answer:");
      line("");
      fields(json);
    }
  }

  private void webhooks() {
    JsonNode hooks = document.path("webhooks");
    if (hooks.isEmpty()) {
      return;
    }
    line("## Webhook events");
    line("");
    for (Map.Entry<String, JsonNode> hook : hooks.properties()) {
      JsonNode post = hook.getValue().path("post");
      line("### " + hook.getKey());
      line("");
      line(post.path("summary").asString("").strip());
      line("");
      String description = post.path("description").asString("").strip();
      if (!description.isEmpty()) {
        line(description);
        line("");
      }
      fields(
          resolve(post.path("requestBody"))
              .path("content")
              .path("application/json")
              .path("schema"));
    }
  }

  /** A table of an object schema's properties. */
  private void fields(JsonNode schemaOrRef) {
    JsonNode schema = resolve(schemaOrRef);
    JsonNode properties = schema.path("properties");
    if (properties.isEmpty()) {
      line(type(schemaOrRef) + ".");
      line("");
      return;
    }
    List<String> required = new ArrayList<>();
    schema.path("required").forEach(r -> required.add(r.asString()));
    line("| Field | Type | Required | Meaning |");
    line("|---|---|---|---|");
    for (Map.Entry<String, JsonNode> property : properties.properties()) {
      JsonNode p = resolve(property.getValue());
      line(
          "| `"
              + property.getKey()
              + "` | "
              + cell(type(property.getValue()))
              + " | "
              + (required.contains(property.getKey()) ? "yes" : "no")
              + " | "
              + cell(
                  (p.path("readOnly").asBoolean() ? "read-only. " : "")
                      + p.path("description")
                          .asString(property.getValue().path("description").asString("")))
              + " |");
    }
    line("");
  }

  private String type(JsonNode schema) {
    if (schema.has("$ref")) {
      String ref = schema.get("$ref").asString();
      return ref.substring(ref.lastIndexOf('/') + 1);
    }
    for (String combinator : List.of("oneOf", "anyOf")) {
      // alternatives that are shapes; those that only constrain (required: [...]) are not types
      List<String> alternatives = new ArrayList<>();
      schema
          .path(combinator)
          .forEach(
              a -> {
                if (a.has("type") || a.has("$ref") || a.has("enum")) {
                  alternatives.add(type(a));
                }
              });
      if (!schema.has("type") && !alternatives.isEmpty()) {
        return String.join(" or ", alternatives);
      }
    }
    if (!schema.has("type") && schema.has("properties")) {
      return "object";
    }
    if (schema.has("enum")) {
      List<String> values = new ArrayList<>();
      schema.get("enum").forEach(v -> values.add("`" + v.asString(v.toString()) + "`"));
      return "one of " + String.join(", ", values);
    }
    JsonNode type = schema.path("type");
    List<String> types = new ArrayList<>();
    if (type.isArray()) {
      type.forEach(t -> types.add(t.asString()));
    } else if (!type.isMissingNode()) {
      types.add(type.asString());
    }
    List<String> named = new ArrayList<>();
    for (String t : types) {
      named.add(t.equals("array") ? "array of " + type(schema.path("items")) : t);
    }
    String format = schema.path("format").asString("");
    return (named.isEmpty() ? "any" : String.join(" or ", named))
        + (format.isEmpty() ? "" : " (" + format + ")");
  }

  private static String media(JsonNode content) {
    return content.isEmpty()
        ? ""
        : " ("
            + content.propertyNames().stream()
                .map(m -> "`" + m + "`")
                .collect(Collectors.joining(", "))
            + ")";
  }

  private static String retryAfter(JsonNode headers) {
    return headers.has("Retry-After") ? "; `Retry-After` says when to retry" : "";
  }

  private JsonNode resolve(JsonNode node) {
    return openApi.resolve(node);
  }

  private static String cell(String text) {
    return oneLine(text).replace("|", "\\|");
  }

  private static String oneLine(String text) {
    return text.strip().replaceAll("\\s*\\n\\s*", " ");
  }

  private static String capitalised(String tag) {
    return tag.isEmpty() ? tag : Character.toUpperCase(tag.charAt(0)) + tag.substring(1);
  }

  private void line(String text) {
    out.append(text).append('\n');
  }
}
