package dev.trainyard.gateway.docs;

import dev.trainyard.common.json.Json;
import dev.trainyard.gateway.http.ApiException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * {@code GET /v1/openapi.yaml}, {@code /v1/openapi.json} and {@code /ui/api}: the document as
 * written, the same as JSON, and a page that renders it. Everything is read once at start and
 * answered from memory with an {@code ETag}, so a client that asks again with {@code If-None-Match}
 * gets a 304.
 */
@Component
public class ApiDescription {
  private static final String DOCUMENT = "dev/trainyard/gateway/docs/openapi.yaml";
  private static final String OWN = "dev/trainyard/gateway/docs/";
  private static final String WEBJAR = "META-INF/resources/webjars/swagger-ui/";
  private static final MediaType YAML = MediaType.parseMediaType("application/yaml;charset=UTF-8");
  private static final CacheControl CACHE =
      CacheControl.maxAge(Duration.ofMinutes(5)).cachePublic();

  /**
   * The page's own rules (API.md §8): scripts only from this origin, never framed; Swagger UI sets
   * inline styles, so styles may be inline.
   */
  private static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
          + "img-src 'self' data:; connect-src 'self'; font-src 'self'; "
          + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

  /** The files the page loads, by name. */
  private final Map<String, Served> assets;

  private final Served yaml;
  private final Served json;
  private final Served page;

  /** Bytes served with their type and entity tag. */
  private record Served(MediaType type, byte[] bytes, String etag) {
    static Served of(MediaType type, byte[] bytes) {
      try {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
        return new Served(type, bytes, "\"" + HexFormat.of().formatHex(digest, 0, 16) + "\"");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }

    /**
     * Whether an {@code If-None-Match} value names this version: weak comparison (RFC 9110
     * §13.1.2), so a tag a proxy weakened ({@code W/"…"}, as compressing proxies do) still matches.
     */
    boolean matches(String ifNoneMatch) {
      return Arrays.stream(ifNoneMatch.split(","))
          .map(String::strip)
          .map(tag -> tag.startsWith("W/") ? tag.substring(2) : tag)
          .anyMatch(tag -> tag.equals(etag) || tag.equals("*"));
    }
  }

  public ApiDescription() {
    byte[] document = read(DOCUMENT);
    this.yaml = Served.of(YAML, document);
    this.json =
        Served.of(
            MediaType.APPLICATION_JSON,
            Json.mapper().writeValueAsBytes(new YAMLMapper().readTree(document)));
    this.page =
        Served.of(MediaType.parseMediaType("text/html;charset=UTF-8"), read(OWN + "api.html"));
    String webjar = WEBJAR + webjarVersion() + "/";
    this.assets =
        Map.of(
            "swagger-ui.css",
            Served.of(
                MediaType.parseMediaType("text/css;charset=UTF-8"),
                read(webjar + "swagger-ui.css")),
            "swagger-ui-bundle.js",
            script(read(webjar + "swagger-ui-bundle.js")),
            "favicon-32x32.png",
            Served.of(MediaType.IMAGE_PNG, read(webjar + "favicon-32x32.png")),
            "api.js",
            script(read(OWN + "api.js")));
  }

  public Mono<ServerResponse> yaml(ServerRequest request) {
    return answer(request, yaml);
  }

  public Mono<ServerResponse> json(ServerRequest request) {
    return answer(request, json);
  }

  /** The page that renders the document for people. */
  public Mono<ServerResponse> page(ServerRequest request) {
    return answer(request, page);
  }

  /** One file of the page: the renderer's script and style sheet, and our script that starts it. */
  public Mono<ServerResponse> asset(ServerRequest request) {
    Served asset = assets.get(request.pathVariable("asset"));
    if (asset == null) {
      return Mono.error(ApiException.notFound("no such file of /ui/api"));
    }
    return answer(request, asset);
  }

  private static Mono<ServerResponse> answer(ServerRequest request, Served served) {
    boolean unchanged =
        request.headers().header(HttpHeaders.IF_NONE_MATCH).stream().anyMatch(served::matches);
    ServerResponse.BodyBuilder answer =
        ServerResponse.status(unchanged ? HttpStatus.NOT_MODIFIED : HttpStatus.OK)
            .eTag(served.etag())
            .cacheControl(CACHE)
            .header("X-Content-Type-Options", "nosniff")
            .header("Referrer-Policy", "same-origin")
            .header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    return unchanged ? answer.build() : answer.contentType(served.type()).bodyValue(served.bytes());
  }

  private static Served script(byte[] bytes) {
    return Served.of(MediaType.parseMediaType("text/javascript;charset=UTF-8"), bytes);
  }

  private static String webjarVersion() {
    Properties properties = new Properties();
    try (InputStream in = open("META-INF/maven/org.webjars/swagger-ui/pom.properties")) {
      properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return properties.getProperty("version");
  }

  private static byte[] read(String resource) {
    try (InputStream in = open(resource)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }

  private static InputStream open(String resource) {
    InputStream in = ApiDescription.class.getClassLoader().getResourceAsStream(resource);
    if (in == null) {
      throw new IllegalStateException(resource + " is not on the class path");
    }
    return in;
  }
}
