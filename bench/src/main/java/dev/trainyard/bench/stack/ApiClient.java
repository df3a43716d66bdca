package dev.trainyard.bench.stack;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;

/** The API with the bench token, for set-up and scripted steps; any answer but 200 stops a run. */
public final class ApiClient {
  private final HttpClient http = HttpClient.newHttpClient();
  private final String base;
  private final String token;

  public ApiClient(String base) {
    this(base, StandaloneProcess.TOKEN);
  }

  /** The API with another token: the admin token, for {@code /admin/v1/*}. */
  public ApiClient(String base, String token) {
    this.base = base;
    this.token = token;
  }

  /** Posts and returns the body; throws on anything but 200. */
  public String post(String path, String json) throws Exception {
    HttpResponse<String> response =
        http.send(request(path, json), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          path + " answered " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }

  /** Posts without waiting; the future holds the status code. */
  public CompletableFuture<Integer> postAsync(String path, String json) {
    return http.sendAsync(request(path, json), HttpResponse.BodyHandlers.discarding())
        .thenApply(HttpResponse::statusCode);
  }

  private HttpRequest request(String path, String json) {
    return HttpRequest.newBuilder(URI.create(base + path))
        .header("x-api-token", token)
        .header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json))
        .build();
  }
}
