package dev.trainyard.gateway.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.gateway.docs.OpenApiDocument.Operation;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * {@code docs/openapi.yaml} is a valid OpenAPI 3.1 document (swagger-parser finds no error in it)
 * and keeps the rules that let the end-to-end suites hold the server to it: every operation named
 * once, every answer of API.md §1 where it can happen, and every object of a response closed, so a
 * field the server sends and the document lacks is caught.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApiDocumentTest {
  private OpenApiDocument openApi;
  private JsonNode document;
  private List<Operation> operations;

  /**
   * Where a response may carry any fields: inside the document as {@code getOpenApiJson} returns it
   * (OpenAPI's own objects, described by its specification, not closed by us).
   */
  private static final String OPEN_BY_DESIGN = "#/components/schemas/OpenApiDocument";

  @BeforeAll
  void read() throws Exception {
    openApi = OpenApiDocument.read();
    document = openApi.root();
    operations = openApi.operations();
  }

  @Test
  void swaggerParserReadsItAsOpenApi31WithNoError() throws Exception {
    ParseOptions options = new ParseOptions();
    options.setResolve(true);
    SwaggerParseResult result =
        new OpenAPIV3Parser()
            .readContents(
                Files.readString(OpenApiDocument.PATH, StandardCharsets.UTF_8), null, options);

    assertThat(result.getMessages()).isEmpty();
    assertThat(result.getOpenAPI().getOpenapi()).startsWith("3.1.");
    assertThat(result.getOpenAPI().getPaths()).hasSameSizeAs(document.get("paths").properties());
    assertThat(result.getOpenAPI().getWebhooks()).isNotEmpty();
  }

  @Test
  void everyOperationIsNamedOnceAndTagged() {
    Set<String> ids = new HashSet<>();
    for (Operation op : operations) {
      String id = op.spec().path("operationId").asString("");
      assertThat(id).as(op.name()).isNotEmpty();
      assertThat(ids.add(id)).as("operationId " + id + " is used twice").isTrue();
      assertThat(op.spec().path("tags").isEmpty()).as(op.name() + " has no tag").isFalse();
      assertThat(op.spec().path("summary").asString("")).as(op.name()).isNotEmpty();
    }
  }

  @Test
  void everyOperationDocumentsTheErrorsOfApiMdSection1ThatItCanAnswer() {
    for (Operation op : operations) {
      Set<String> statuses = op.statuses();
      assertThat(statuses).as(op.name()).contains("200");
      if (op.path().startsWith("/actuator/")) {
        continue;
      }
      if (!op.isPublic()) {
        assertThat(statuses).as(op.name()).contains("401", "429", "503");
      }
      if (op.method().equals("POST")) {
        assertThat(statuses).as(op.name()).contains("400", "413");
      }
      for (String status : statuses) {
        if (!status.startsWith("2") && !status.equals("304")) {
          assertThat(content(op, status).propertyNames())
              .as(op.name() + " " + status + " is one plain-text sentence")
              .containsExactly("text/plain");
        }
      }
    }
  }

  @Test
  void answersThatAskToComeBackLaterSayWhen() {
    for (Operation op : operations) {
      for (String status : List.of("429", "503")) {
        if (op.statuses().contains(status) && !op.path().startsWith("/actuator/")) {
          JsonNode response = resolve(op.spec().path("responses"), status);
          assertThat(resolve(response.path("headers"), "Retry-After").path("required").asBoolean())
              .as(op.name() + " " + status + " documents a required Retry-After")
              .isTrue();
        }
      }
    }
  }

  @Test
  void everyObjectOfAResponseOrAnEventIsClosed() {
    List<String> open = new ArrayList<>();
    for (Operation op : operations) {
      for (String status : op.statuses()) {
        JsonNode json = content(op, status).path("application/json").path("schema");
        closed(json, op.name() + " " + status, new HashSet<>(), open);
      }
    }
    for (Map.Entry<String, JsonNode> hook : document.path("webhooks").properties()) {
      JsonNode schema =
          hook.getValue()
              .path("post")
              .path("requestBody")
              .path("content")
              .path("application/json")
              .path("schema");
      assertThat(schema.isMissingNode()).as("webhook " + hook.getKey()).isFalse();
      closed(schema, "webhook " + hook.getKey(), new HashSet<>(), open);
    }
    assertThat(open).as("objects that would let an undocumented field through").isEmpty();
  }

  @Test
  void theTokensAreTheHeaderOfApiMdSection1() {
    JsonNode schemes = document.at("/components/securitySchemes");
    assertThat(schemes.propertyNames()).contains("apiToken", "adminToken");
    for (JsonNode scheme : schemes) {
      assertThat(scheme.get("type").asString()).isEqualTo("apiKey");
      assertThat(scheme.get("in").asString()).isEqualTo("header");
      assertThat(scheme.get("name").asString()).isEqualTo("x-api-token");
    }
    JsonNode admin = new YAMLMapper().readTree("[{adminToken: []}]");
    JsonNode organization = new YAMLMapper().readTree("[{apiToken: []}]");
    for (Operation op : operations) {
      JsonNode security =
          op.spec().has("security") ? op.spec().get("security") : document.path("security");
      if (op.path().startsWith("/admin/v1/")) {
        assertThat(security).as(op.name()).isEqualTo(admin);
      } else if (!op.isPublic()) {
        assertThat(security).as(op.name()).isEqualTo(organization);
      }
    }
  }

  private JsonNode content(Operation op, String status) {
    return resolve(op.spec().path("responses"), status).path("content");
  }

  private JsonNode resolve(JsonNode parent, String name) {
    return openApi.resolve(parent.path(name));
  }

  /** Walks {@code schema}, adding to {@code open} each object schema without closed properties. */
  private void closed(JsonNode schema, String where, Set<String> seen, List<String> open) {
    if (schema == null || schema.isMissingNode() || !schema.isObject()) {
      return;
    }
    if (schema.has("$ref")) {
      String ref = schema.get("$ref").asString();
      if (seen.add(ref) && !ref.equals(OPEN_BY_DESIGN)) {
        closed(document.at(ref.substring(1)), ref, seen, open);
      }
      return;
    }
    boolean object =
        schema.path("type").asString("").equals("object")
            || schema.path("type").toString().contains("\"object\"")
            || schema.has("properties");
    // closed: no other field (false), or others only of one declared shape (a map's schema)
    boolean closed =
        (schema.path("additionalProperties").isObject()
                && !schema.path("additionalProperties").isEmpty())
            || !schema.path("additionalProperties").asBoolean(true)
            || !schema.path("unevaluatedProperties").asBoolean(true);
    if (object && !closed) {
      open.add(where);
    }
    for (JsonNode property : schema.path("properties")) {
      closed(property, where, seen, open);
    }
    closed(schema.path("items"), where, seen, open);
    JsonNode additional = schema.path("additionalProperties");
    if (additional.isObject()) {
      closed(additional, where, seen, open);
    }
    for (String combinator : List.of("oneOf", "anyOf", "allOf")) {
      for (JsonNode alternative : schema.path(combinator)) {
        closed(alternative, where, seen, open);
      }
    }
  }
}
