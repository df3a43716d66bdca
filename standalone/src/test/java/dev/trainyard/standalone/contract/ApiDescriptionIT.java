package dev.trainyard.standalone.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import dev.trainyard.gateway.auth.SecuredRoutes;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.TestStack;
import dev.trainyard.worker.scm.github.OpenApiContract;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RequestPredicate;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * API.md §9: the document in {@code docs/} is what the server serves, it names exactly the routes
 * the services register, and {@code /ui/api} renders it from files the gateway itself serves.
 */
class ApiDescriptionIT {
  /** Gateway routes that are pages for people, not API operations. */
  private static final Set<String> PAGES = Set.of("GET /ui/api", "GET /ui/api/{asset}");

  /** The gateway forwards this one route to the flaky-tests service, which routes the rest. */
  private static final String FORWARDED = "POST /v1/flaky-tests/{operation}";

  private final TestStack stack = TestStack.shared();

  @Test
  void everyRoutedOperationIsDocumentedAndEveryDocumentedOneIsRouted() {
    Set<String> routed = new TreeSet<>();
    stack
        .services()
        .gatewayContext()
        .getBean(SecuredRoutes.Table.class)
        .routes()
        .forEach(route -> routed.add(route.method().name() + " " + route.path()));
    assertThat(routed).contains(FORWARDED).containsAll(PAGES);
    routed.remove(FORWARDED);
    routed.removeAll(PAGES);
    routed.addAll(routesOf(stack.services().flakyContext().getBean(RouterFunction.class)));

    assertThat(Api.contract().operations()).containsExactlyInAnyOrderElementsOf(routed);
  }

  @Test
  void theServedDocumentIsTheOneInTheRepositoryAsYamlAndAsJson() throws Exception {
    Api anonymous = stack.api().withToken(null);
    byte[] file = Files.readAllBytes(OpenApiContract.TRAINYARD);

    Api.Response yaml = anonymous.send(anonymous.request("/v1/openapi.yaml").GET());
    Api.Response json = anonymous.send(anonymous.request("/v1/openapi.json").GET());

    assertThat(yaml.status()).isEqualTo(200);
    assertThat(yaml.contentType()).startsWith("application/yaml");
    assertThat(yaml.body()).isEqualTo(new String(file, java.nio.charset.StandardCharsets.UTF_8));
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
  }

  @Test
  void theReferencePageLoadsOnlyFilesTheGatewayServesAndNoInlineScript() {
    // a page for people: not an operation of the document, so a client not held to it
    Api anonymous = new Api(stack.api().base(), null);

    Api.Response page = anonymous.send(anonymous.request("/ui/api").GET());

    assertThat(page.status()).isEqualTo(200);
    assertThat(page.contentType()).startsWith("text/html");
    String policy = page.headers().firstValue("content-security-policy").orElseThrow();
    assertThat(policy).contains("script-src 'self'").contains("frame-ancestors 'none'");
    assertThat(policy.substring(policy.indexOf("script-src")))
        .doesNotStartWith("script-src 'self' 'unsafe");
    assertThat(page.headers().firstValue("x-content-type-options")).contains("nosniff");
    assertThat(page.body())
        .doesNotContain("<script>")
        .doesNotContain("http://")
        .doesNotContain("https://");
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
      java.util.Properties properties = new java.util.Properties();
      properties.load(in);
      return properties.getProperty("version");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
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
          public void resources(
              Function<
                      org.springframework.web.reactive.function.server.ServerRequest,
                      Mono<org.springframework.core.io.Resource>>
                  lookup) {}

          @Override
          public void attributes(java.util.Map<String, Object> attributes) {}

          @Override
          public void unknown(RouterFunction<?> routerFunction) {
            throw new AssertionError("a route of unknown shape: " + routerFunction);
          }
        });
    return routes;
  }
}
