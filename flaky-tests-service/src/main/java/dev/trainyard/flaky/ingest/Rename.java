package dev.trainyard.flaky.ingest;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.json.StrictJson;
import dev.trainyard.flaky.http.ApiException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.http.codec.multipart.Part;
import org.springframework.util.MultiValueMap;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * One entry of an upload's {@code renames}: the upload reports test {@code name} (of {@code
 * classname}, if given) that was test {@code from} before a rename. A renamed test is a new test
 * id; without this its quarantine override (and so what CI ignores) was lost. The upload's tests of
 * that classname and name that have no override take {@code from}'s.
 */
public record Rename(String from, String classname, String name) {
  /** The most renames one upload carries. */
  static final int MAX = 100;

  private static final String SHAPE =
      "renames must be a JSON array of at most "
          + MAX
          + " objects {\"from\": \"<test id>\", \"classname\": \"…\" (optional), \"name\": \"…\"}";

  /** The upload's renames ({@code renames} field, JSON); none without the field; else a 400. */
  static Mono<List<Rename>> read(MultiValueMap<String, Part> parts) {
    Part part = parts.getFirst("renames");
    if (part == null) {
      return Mono.just(List.of());
    }
    return UploadForm.field("renames", part).map(Rename::parse);
  }

  static List<Rename> parse(String json) {
    JsonNode array;
    try {
      array = Json.mapper().readTree(json);
    } catch (JacksonException e) {
      throw ApiException.badRequest(SHAPE);
    }
    if (array == null || !array.isArray() || array.size() > MAX) {
      throw ApiException.badRequest(SHAPE);
    }
    List<Rename> renames = new ArrayList<>();
    for (JsonNode entry : array) {
      String from = text(entry, "from");
      String name = text(entry, "name");
      String classname = entry.has("classname") ? text(entry, "classname") : null;
      if (from == null || name == null || name.isBlank()) {
        throw ApiException.badRequest(SHAPE);
      }
      try {
        from = UUID.fromString(from).toString();
      } catch (IllegalArgumentException e) {
        throw ApiException.badRequest("renames: from must be a test id (a UUID)");
      }
      renames.add(new Rename(from, classname, VolatileValues.normalised(name)));
    }
    return renames;
  }

  private static String text(JsonNode entry, String field) {
    JsonNode value = entry.get(field);
    if (value == null || !value.isString() || value.asString().length() > StrictJson.MAX_NAME) {
      return null;
    }
    return value.asString();
  }

  /** Whether {@code result} is the test this rename names. */
  boolean names(TestCaseResult result) {
    return name.equals(result.name())
        && (classname == null || classname.equals(result.classname()));
  }
}
