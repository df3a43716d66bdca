package dev.trainyard.gateway.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * {@code docs/openapi.yaml} as the gateway's tests read it: its operations in document order, and a
 * node with its {@code $ref} followed.
 */
record OpenApiDocument(JsonNode root, List<Operation> operations) {
  static final Path PATH = Path.of("..", "docs", "openapi.yaml");

  /** The keys of a path item that are operations (the others are fields they share). */
  private static final Set<String> METHODS =
      Set.of("get", "put", "post", "delete", "options", "head", "patch", "trace");

  /** One operation: its method in upper case, its path and its object. */
  record Operation(String method, String path, JsonNode spec) {
    String name() {
      return method + " " + path;
    }

    boolean isPublic() {
      return spec.has("security") && spec.get("security").isEmpty();
    }

    Set<String> statuses() {
      return new HashSet<>(spec.path("responses").propertyNames());
    }
  }

  static OpenApiDocument read() throws IOException {
    JsonNode root = new YAMLMapper().readTree(Files.readAllBytes(PATH));
    List<Operation> operations = new ArrayList<>();
    for (Map.Entry<String, JsonNode> path : root.path("paths").properties()) {
      for (Map.Entry<String, JsonNode> op : path.getValue().properties()) {
        if (METHODS.contains(op.getKey())) {
          operations.add(new Operation(op.getKey().toUpperCase(), path.getKey(), op.getValue()));
        }
      }
    }
    return new OpenApiDocument(root, List.copyOf(operations));
  }

  /** {@code node}, or what its {@code $ref} points at in this document. */
  JsonNode resolve(JsonNode node) {
    return node.has("$ref") ? root.at(node.get("$ref").asString().substring(1)) : node;
  }
}
