package dev.trainyard.gateway.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunctions;

/**
 * The description's routes over the handler alone: the document as written and as JSON, entity tags
 * that let a client (or a proxy that weakened the tag) revalidate with a 304 that keeps the tag,
 * and the page's files with the types a browser under {@code nosniff} needs.
 */
class ApiDescriptionTest {
  private final ApiDescription description = new ApiDescription();
  private final WebTestClient client =
      WebTestClient.bindToRouterFunction(
              RouterFunctions.route(RequestPredicates.GET("/v1/openapi.yaml"), description::yaml)
                  .andRoute(RequestPredicates.GET("/v1/openapi.json"), description::json)
                  .andRoute(RequestPredicates.GET("/ui/api"), description::page)
                  .andRoute(RequestPredicates.GET("/ui/api/{asset}"), description::asset))
          .build();

  @Test
  void theYamlIsTheFileInDocsAsWritten() throws Exception {
    byte[] body =
        client
            .get()
            .uri("/v1/openapi.yaml")
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .contentType("application/yaml;charset=UTF-8")
            .expectBody()
            .returnResult()
            .getResponseBody();

    assertThat(new String(body, StandardCharsets.UTF_8))
        .isEqualTo(Files.readString(OpenApiDocument.PATH, StandardCharsets.UTF_8));
  }

  @Test
  void aClientThatHasTheDocumentGetsA304ThatKeepsTheTag() {
    for (String path : new String[] {"/v1/openapi.yaml", "/v1/openapi.json", "/ui/api/api.js"}) {
      String etag =
          client
              .get()
              .uri(path)
              .exchange()
              .expectStatus()
              .isOk()
              .returnResult(byte[].class)
              .getResponseHeaders()
              .getETag();
      assertThat(etag).as(path).startsWith("\"");

      for (String asked : new String[] {etag, "W/" + etag, "\"other\", " + etag, "*"}) {
        client
            .get()
            .uri(path)
            .header("If-None-Match", asked)
            .exchange()
            .expectStatus()
            .isNotModified()
            .expectHeader()
            .valueEquals("ETag", etag)
            .expectHeader()
            .valueMatches("Cache-Control", ".*public.*")
            .expectBody()
            .isEmpty();
      }
      client
          .get()
          .uri(path)
          .header("If-None-Match", "\"an-older-version\"")
          .exchange()
          .expectStatus()
          .isOk();
    }
  }

  @Test
  void thePageLoadsFilesOfTheTypesTheBrowserNeeds() {
    for (String[] file :
        new String[][] {
          {"/ui/api", "text/html"},
          {"/ui/api/api.js", "text/javascript"},
          {"/ui/api/swagger-ui-bundle.js", "text/javascript"},
          {"/ui/api/swagger-ui.css", "text/css"},
          {"/ui/api/favicon-32x32.png", "image/png"}
        }) {
      client
          .get()
          .uri(file[0])
          .exchange()
          .expectStatus()
          .isOk()
          .expectHeader()
          .valueMatches("Content-Type", file[1] + ".*")
          .expectHeader()
          .valueEquals("X-Content-Type-Options", "nosniff");
    }
  }
}
