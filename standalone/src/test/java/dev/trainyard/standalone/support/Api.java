package dev.trainyard.standalone.support;

import dev.trainyard.common.json.Json;
import dev.trainyard.worker.scm.github.OpenApiContract;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Flow;
import tools.jackson.databind.JsonNode;

/**
 * A plain HTTP client over a real socket, as CI actions and Terraform call trainyard. One {@link
 * #heldToDocument held to the document} checks every exchange against {@code docs/openapi.yaml}: an
 * answer the document does not describe (a status, a media type, a missing required header, a JSON
 * field it lacks or a required one missing) fails the calling test, and so does a 2xx to a request
 * the document refuses.
 */
public final class Api {
  /**
   * {@code /<org>/merge-queue/…} and {@code /<org>/flaky-tests/test/…}: links into the dashboard.
   */
  private static final java.util.regex.Pattern DASHBOARD_LINK =
      java.util.regex.Pattern.compile("/(?!v1/|admin/)[^/]+/(merge-queue|flaky-tests/test)/.*");

  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(5))
          .version(HttpClient.Version.HTTP_1_1)
          .build();
  private static OpenApiContract document;
  private final String base;
  private final String token;
  private final OpenApiContract contract;

  public Api(String base, String token) {
    this(base, token, null);
  }

  private Api(String base, String token, OpenApiContract contract) {
    this.base = base;
    this.token = token;
    this.contract = contract;
  }

  /** A client of the API port whose every exchange is checked against the document. */
  public static Api heldToDocument(String base, String token) {
    return new Api(base, token, contract());
  }

  /** trainyard's description, read once per test JVM. */
  public static synchronized OpenApiContract contract() {
    if (document == null) {
      try {
        document = OpenApiContract.trainyard(OpenApiContract.TRAINYARD);
      } catch (IOException e) {
        throw new IllegalStateException("cannot read " + OpenApiContract.TRAINYARD, e);
      }
    }
    return document;
  }

  public Api withToken(String otherToken) {
    return new Api(base, otherToken, contract);
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

  /** {@code request} sent, and held to the document when this client is. */
  public Response send(HttpRequest.Builder request) {
    try {
      HttpRequest sent = request.build();
      HttpResponse<String> r =
          CLIENT.send(sent, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      Response response = new Response(r.statusCode(), r.headers(), r.body());
      if (contract != null) {
        hold(sent, json(sent), response);
      }
      return response;
    } catch (IOException e) {
      throw new IllegalStateException("request to " + base + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The body of a JSON request as sent (the publishers of a string or bytes give it at once). */
  private static String json(HttpRequest request) {
    boolean json =
        request.headers().firstValue("content-type").orElse("").startsWith("application/json");
    if (!json || request.bodyPublisher().isEmpty()) {
      return null;
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    request
        .bodyPublisher()
        .get()
        .subscribe(
            new Flow.Subscriber<ByteBuffer>() {
              @Override
              public void onSubscribe(Flow.Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
              }

              @Override
              public void onNext(ByteBuffer item) {
                byte[] bytes = new byte[item.remaining()];
                item.get(bytes);
                body.writeBytes(bytes);
              }

              @Override
              public void onError(Throwable throwable) {}

              @Override
              public void onComplete() {}
            });
    return body.toString(StandardCharsets.UTF_8);
  }

  private void hold(HttpRequest request, String json, Response response) {
    Map<String, String> headers = new TreeMap<>();
    response
        .headers()
        .map()
        .forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), values.get(0)));
    hold(
        contract,
        new Exchange(
            request.method(),
            request.uri().getRawPath(),
            json,
            response.status(),
            headers,
            response.body()));
  }

  /**
   * One exchange another client had (the command-line client): its request's method, raw path and
   * JSON body (null when none), the answer's status, headers (names in lower case) and body.
   */
  public record Exchange(
      String method,
      String path,
      String json,
      int status,
      Map<String, String> headers,
      String body) {}

  /** Fails the calling test when {@code exchange} is not what the document describes. */
  public static void holdToDocument(Exchange exchange) {
    hold(contract(), exchange);
  }

  private static void hold(OpenApiContract contract, Exchange exchange) {
    String path = exchange.path();
    String method = exchange.method();
    int status = exchange.status();
    String json = exchange.json();
    if (path.startsWith("/ui/") || DASHBOARD_LINK.matcher(path).matches()) {
      return; // pages for people (and the links into them), not operations of the API
    }
    if (contract.operation(method, path).isEmpty()) {
      // a path no operation has: unknown (404, 405), or an operation the gateway forwards to the
      // flaky-tests service unread, refused for its token before that service says it is unknown
      boolean forwarded = path.startsWith("/v1/flaky-tests/") && status == 401;
      if (status != 404 && status != 405 && !forwarded) {
        throw new AssertionError(
            method + " " + path + " answered " + status + " but is no operation of the document");
      }
      return;
    }
    List<String> problems = new ArrayList<>();
    if (json != null && status / 100 == 2) {
      JsonNode body = null;
      try {
        body = Json.mapper().readTree(json);
      } catch (RuntimeException notJson) {
        problems.add(method + " " + path + " answered " + status + " to a body that is no JSON");
      }
      if (body != null) {
        contract.checkRequest(method, path, body).stream()
            .map(p -> "the server accepted what the document refuses: " + p)
            .forEach(problems::add);
      }
    }
    problems.addAll(
        contract.checkResponse(method, path, status, exchange.headers(), exchange.body()));
    if (!problems.isEmpty()) {
      throw new AssertionError(
          "docs/openapi.yaml does not describe this exchange:\n  "
              + String.join("\n  ", problems)
              + "\nrequest: "
              + (json == null ? "(not JSON)" : json)
              + "\nresponse: "
              + exchange.body());
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
