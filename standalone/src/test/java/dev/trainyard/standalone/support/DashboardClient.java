package dev.trainyard.standalone.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;

/** A browser's requests to the dashboard without a browser: sign-in, pages, live streams. */
public final class DashboardClient {
  private DashboardClient() {}

  /** The answer to the sign-in form sent with {@code token}. */
  public static Api.Response signInAnswer(Api gateway, String token) {
    return gateway.send(signInRequest(gateway, token));
  }

  /** The sign-in form's POST, to add headers to. */
  public static HttpRequest.Builder signInRequest(Api gateway, String token) {
    return gateway
        .request("/ui/sign-in")
        .setHeader("content-type", "application/x-www-form-urlencoded")
        .POST(
            HttpRequest.BodyPublishers.ofString(
                "next=%2Fui%2F&token=" + URLEncoder.encode(token, StandardCharsets.UTF_8)));
  }

  /** Signs in with {@code token}: the {@code cookie} header value that names the session. */
  public static String signIn(Api gateway, String token) {
    Api.Response answer = signInAnswer(gateway, token);
    assertThat(answer.status()).as(answer.body()).isEqualTo(303);
    String cookie = answer.headers().firstValue("set-cookie").orElseThrow();
    return cookie.substring(0, cookie.indexOf(';'));
  }

  public static Api.Response get(Api gateway, String path, String cookie) {
    return gateway.send(gateway.request(path).setHeader("cookie", cookie).GET());
  }

  /** An open page's event stream: its lines as they come, and when it ends. */
  public record Events(
      BlockingQueue<String> lines,
      CompletableFuture<Integer> status,
      CompletableFuture<Boolean> ended) {
    public static Events open(Api gateway, String scope, String cookie) {
      BlockingQueue<String> lines = new LinkedBlockingQueue<>();
      CompletableFuture<Integer> status = new CompletableFuture<>();
      CompletableFuture<Boolean> ended =
          HttpClient.newHttpClient()
              .sendAsync(
                  HttpRequest.newBuilder(
                          URI.create(
                              gateway.base()
                                  + "/ui/events?scope="
                                  + URLEncoder.encode(scope, StandardCharsets.UTF_8)))
                      .header("cookie", cookie)
                      .header("accept", "text/event-stream")
                      .build(),
                  HttpResponse.BodyHandlers.ofLines())
              .thenApply(
                  r -> {
                    status.complete(r.statusCode());
                    r.body().forEach(lines::add);
                    return true;
                  });
      return new Events(lines, status, ended);
    }
  }
}
