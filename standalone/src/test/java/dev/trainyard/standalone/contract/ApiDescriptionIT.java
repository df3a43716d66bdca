package dev.trainyard.standalone.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import dev.trainyard.gateway.auth.Access;
import dev.trainyard.gateway.auth.SecuredRoutes;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.TestStack;
import dev.trainyard.worker.scm.github.OpenApiContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.Resource;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RequestPredicate;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * API.md §9: the document in {@code docs/} is what the server serves, it names exactly the routes
 * the services register, and {@code /ui/api} renders it from files the gateway itself serves.
 */
class ApiDescriptionIT {
  /**
   * Gateway routes that are pages for people, not API operations: the reference, the dashboard
   * (API.md §8) and the redirect from the details links events carry.
   */
  private static final Set<String> PAGES =
      Set.of("GET /ui/api", "GET /ui/api/{asset}", "GET /ui/", "POST /ui/sign-in");

  private static boolean isPage(String operation) {
    String path = operation.substring(operation.indexOf(' ') + 1);
    return path.startsWith("/ui/")
        || path.equals("/{org}/merge-queue/{*rest}")
        || path.equals("/{org}/flaky-tests/test/{testId}");
  }

  /** The gateway forwards this one route to the flaky-tests service, which routes the rest. */
  private static final String FORWARDED = "POST /v1/flaky-tests/{operation}";

  private final TestStack stack = TestStack.shared();

  @Test
  void everyRoutedOperationIsDocumentedAndEveryDocumentedOneIsRouted() {
    Map<String, Access> routed = new TreeMap<>();
    stack
        .services()
        .gatewayContext()
        .getBean(SecuredRoutes.Table.class)
        .routes()
        .forEach(route -> routed.put(route.method().name() + " " + route.path(), route.access()));
    assertThat(routed).containsKey(FORWARDED).containsKeys(PAGES.toArray(String[]::new));
    routed.remove(FORWARDED);
    routed.keySet().removeIf(ApiDescriptionIT::isPage);
    routesOf(stack.services().flakyContext().getBean(RouterFunction.class))
        .forEach(operation -> routed.put(operation, Access.ORGANIZATION));

    assertThat(Api.contract().operations()).containsExactlyInAnyOrderElementsOf(routed.keySet());
    // and each demands in the document the token its route demands
    JsonNode paths = Api.contract().document().get("paths");
    routed.forEach(
        (operation, access) -> {
          String[] methodAndPath = operation.split(" ");
          JsonNode security =
              paths
                  .get(methodAndPath[1])
                  .get(methodAndPath[0].toLowerCase(Locale.ROOT))
                  .get("security");
          String expected =
              switch (access) {
                case PUBLIC -> "[]";
                case ADMIN -> "[{\"adminToken\":[]}]";
                case ORGANIZATION -> "[{\"apiToken\":[]}]";
                case SESSION -> "a dashboard page, not an operation";
              };
          assertThat(security).as(operation).isNotNull();
          assertThat(security.toString()).as(operation).isEqualTo(expected);
        });
  }

  /**
   * API.md §1: an explicit null for an optional field counts as absent. The document says so field
   * by field, or a client that sends null (a generated one does) would be told by the document that
   * a request the server takes is wrong.
   */
  @Test
  void everyOptionalFieldOfAJsonRequestTakesNull() {
    OpenApiContract contract = Api.contract();
    List<String> refusingNull = new ArrayList<>();
    for (Map.Entry<String, JsonNode> path : contract.document().get("paths").properties()) {
      for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
        JsonNode schema = operation.getValue().at("/requestBody/content/application~1json/schema");
        String name = operation.getKey() + " " + path.getKey() + " ";
        if (!schema.isMissingNode()) {
          optionalFieldsRefusingNull(contract, schema, name, refusingNull);
        }
      }
    }
    assertThat(refusingNull).isEmpty();
  }

  /**
   * Adds to {@code out} each optional property of {@code schema} that refuses null, and of the
   * objects within it: its properties', its alternatives' ({@code anyOf}, {@code oneOf}) and its
   * items'.
   */
  private static void optionalFieldsRefusingNull(
      OpenApiContract contract, JsonNode schema, String path, List<String> out) {
    JsonNode object = contract.resolved(schema);
    Set<String> required = new TreeSet<>();
    object.path("required").forEach(name -> required.add(name.asString()));
    for (Map.Entry<String, JsonNode> field : object.path("properties").properties()) {
      String fieldPath = path + field.getKey();
      if (!required.contains(field.getKey()) && !takesNull(contract, field.getValue())) {
        out.add(fieldPath);
      }
      optionalFieldsRefusingNull(contract, field.getValue(), fieldPath + ".", out);
    }
    for (String within : List.of("anyOf", "oneOf")) {
      for (JsonNode alternative : object.path(within)) {
        optionalFieldsRefusingNull(contract, alternative, path, out);
      }
    }
    if (object.has("items")) {
      optionalFieldsRefusingNull(contract, object.get("items"), path + "[].", out);
    }
  }

  private static boolean takesNull(OpenApiContract contract, JsonNode schema) {
    JsonNode s = contract.resolved(schema);
    JsonNode type = s.path("type");
    boolean typed =
        type.isString() ? type.asString().equals("null") : type.toString().contains("\"null\"");
    boolean enumerated = !s.has("enum") || s.get("enum").toString().contains("null");
    if (typed && enumerated) {
      return true;
    }
    for (String alternatives : List.of("anyOf", "oneOf")) {
      for (JsonNode alternative : s.path(alternatives)) {
        if (takesNull(contract, alternative)) {
          return true;
        }
      }
    }
    return false;
  }

  @Test
  void theServedDocumentIsTheOneInTheRepositoryAsYamlAndAsJson() throws Exception {
    Api anonymous = stack.api().withToken(null);
    byte[] file = Files.readAllBytes(OpenApiContract.TRAINYARD);

    Api.Response yaml = anonymous.send(anonymous.request("/v1/openapi.yaml").GET());
    Api.Response json = anonymous.send(anonymous.request("/v1/openapi.json").GET());

    assertThat(yaml.status()).isEqualTo(200);
    assertThat(yaml.contentType()).startsWith("application/yaml");
    assertThat(yaml.body()).isEqualTo(new String(file, StandardCharsets.UTF_8));
    assertThat(json.status()).isEqualTo(200);
    assertThat(json.contentType()).startsWith("application/json");
    JsonNode fromFile = new YAMLMapper().readTree(file);
    assertThat(Json.mapper().readTree(json.body())).isEqualTo(fromFile);
    assertThat(fromFile.get("openapi").asString()).startsWith("3.1.");
    assertThat(json.headers().firstValue("cache-control").orElse("")).contains("public");
    String etag = json.headers().firstValue("etag").orElseThrow();
    Api.Response again =
        anonymous.send(anonymous.request("/v1/openapi.json").header("If-None-Match", etag).GET());
    assertThat(again.status()).isEqualTo(304);
    assertThat(again.body()).isEmpty();
    assertThat(again.headers().firstValue("etag")).contains(etag);
  }

  @Test
  void theReferencePageLoadsOnlyFilesTheGatewayServesAndNoInlineScript() {
    Api anonymous = stack.api().withToken(null);

    Api.Response page = anonymous.send(anonymous.request("/ui/api").GET());

    assertThat(page.status()).isEqualTo(200);
    assertThat(page.contentType()).startsWith("text/html");
    Map<String, String> policy = new TreeMap<>();
    for (String directive :
        page.headers().firstValue("content-security-policy").orElseThrow().split(";")) {
      String[] words = directive.strip().split(" ", 2);
      policy.put(words[0], words.length > 1 ? words[1] : "");
    }
    assertThat(policy)
        .containsEntry("default-src", "'none'")
        .containsEntry("script-src", "'self'")
        .containsEntry("frame-ancestors", "'none'");
    assertThat(page.headers().firstValue("x-content-type-options")).contains("nosniff");
    assertThat(page.body()).doesNotContain("http://").doesNotContain("https://");
    Matcher script = Pattern.compile("<script([^>]*)>").matcher(page.body());
    while (script.find()) {
      assertThat(script.group(1)).as("every script is a file of the gateway").contains(" src=\"/");
    }
    Matcher loaded = Pattern.compile("(?:src|href)=\"(/[^\"]+)\"").matcher(page.body());
    List<String> files = new ArrayList<>();
    while (loaded.find()) {
      files.add(loaded.group(1));
    }
    assertThat(files)
        .contains("/ui/api/swagger-ui-bundle.js", "/ui/api/api.js", "/ui/api/swagger-ui.css");
    for (String file : files) {
      Api.Response asset = anonymous.send(anonymous.request(file).GET());
      assertThat(asset.status()).as(file).isEqualTo(200);
      assertThat(asset.body()).as(file).isNotEmpty();
    }
    assertThat(anonymous.send(anonymous.request("/ui/api/api.js").GET()).body())
        .contains("/v1/openapi.json");
    // only the page's own files: not the rest of the WebJar, not under Boot's /webjars/** either
    for (String other :
        List.of(
            "/ui/api/index.html",
            "/ui/api/swagger-initializer.js",
            "/webjars/swagger-ui/" + webjarVersion() + "/index.html",
            "/webjars/swagger-ui/" + webjarVersion() + "/swagger-ui-bundle.js",
            "/swagger-ui/index.html")) {
      assertThat(anonymous.send(anonymous.request(other).GET()).status()).as(other).isEqualTo(404);
    }
  }

  private static String webjarVersion() {
    try (var in =
        ApiDescriptionIT.class
            .getClassLoader()
            .getResourceAsStream("META-INF/maven/org.webjars/swagger-ui/pom.properties")) {
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code METHOD path} of each route of a functional router (its predicates' own spelling). */
  private static Set<String> routesOf(RouterFunction<?> router) {
    Set<String> routes = new TreeSet<>();
    Pattern route = Pattern.compile("\\(([A-Z]+) && (/\\S+)\\)");
    router.accept(
        new RouterFunctions.Visitor() {
          @Override
          public void startNested(RequestPredicate predicate) {}

          @Override
          public void endNested(RequestPredicate predicate) {}

          @Override
          public void route(RequestPredicate predicate, HandlerFunction<?> handlerFunction) {
            Matcher m = route.matcher(predicate.toString());
            assertThat(m.matches()).as(predicate.toString()).isTrue();
            routes.add(m.group(1) + " " + m.group(2));
          }

          @Override
          public void resources(Function<ServerRequest, Mono<Resource>> lookup) {}

          @Override
          public void attributes(Map<String, Object> attributes) {}

          @Override
          public void unknown(RouterFunction<?> routerFunction) {
            throw new AssertionError("a route of unknown shape: " + routerFunction);
          }
        });
    return routes;
  }
}
