package dev.trainyard.standalone.support;

import dev.trainyard.common.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/** A plain HTTP client over a real socket, as CI actions and Terraform call trainyard. */
public final class Api {
  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(5))
          .version(HttpClient.Version.HTTP_1_1)
          .build();
  private final String base;
  private final String token;

  public Api(String base, String token) {
    this.base = base;
    this.token = token;
  }

  public Api withToken(String otherToken) {
    return new Api(base, otherToken);
  }

  public String base() {
    return base;
  }

  public String token() {
    return token;
  }

  /** A response: status, headers and the body as text. */
  public record Response(int status, HttpHeaders headers, String body) {
    public JsonNode json() {
      return Json.mapper().readTree(body);
    }

    public String contentType() {
      return headers.firstValue("content-type").orElse("");
    }
  }

  public Response post(String path, String json) {
    return send(request(path).POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  public Response postBytes(String path, byte[] body) {
    return send(request(path).POST(HttpRequest.BodyPublishers.ofByteArray(body)));
  }

  public HttpRequest.Builder request(String path) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofSeconds(20))
            .header("content-type", "application/json");
    return token == null ? builder : builder.header("x-api-token", token);
  }

  public Response send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> r =
          CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      return new Response(r.statusCode(), r.headers(), r.body());
    } catch (IOException e) {
      throw new IllegalStateException("request to " + base + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** A fresh repository name, so every test works on queues of its own. */
  public static String uniqueRepo() {
    return "repo-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** The common request fields plus {@code pr.number}. */
  public static String prBody(String repo, long number) {
    return body(repo, "\"pr\":{\"number\":" + number + "}");
  }

  /** The common request fields of API.md for {@code repo} and {@code main}, plus {@code extra}. */
  public static String body(String repo, String extra) {
    return "{\"repo\":{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\""
        + repo
        + "\"},"
        + "\"targetBranch\":\"main\""
        + (extra.isEmpty() ? "" : "," + extra)
        + "}";
  }
}
