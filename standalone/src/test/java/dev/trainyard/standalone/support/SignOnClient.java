package dev.trainyard.standalone.support;

import java.io.IOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One browser's trip through single sign-on without a browser: a cookie jar, and redirects followed
 * one by one so a test can stop at any step (the callback URL before it is used, the provider's
 * login form) or replay one.
 */
public final class SignOnClient {

  private final CookieManager cookies = new CookieManager();
  private final HttpClient http =
      HttpClient.newBuilder()
          .cookieHandler(cookies)
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();
  private final String gateway;

  public SignOnClient(String gateway) {
    this.gateway = gateway;
  }

  public HttpResponse<String> get(String url) {
    return send(HttpRequest.newBuilder(absolute(url)).GET());
  }

  /** A GET as an open page sends it to read itself again after a live update (live.js). */
  public HttpResponse<String> refresh(String url) {
    return send(HttpRequest.newBuilder(absolute(url)).header("X-Trainyard-Refresh", "1").GET());
  }

  /** A GET carrying {@code cookie} as given, whatever the jar holds. */
  public HttpResponse<String> send(String url, String cookie) {
    return send(HttpRequest.newBuilder(absolute(url)).header("cookie", cookie).GET());
  }

  public HttpResponse<String> post(String url, String form) {
    return send(
        HttpRequest.newBuilder(absolute(url))
            .header("content-type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form)));
  }

  private URI absolute(String url) {
    return URI.create(url.startsWith("http") ? url : gateway + url);
  }

  private final java.util.List<String> hops = new java.util.ArrayList<>();

  /** Every request this browser sent and its answer's status, for a failing test's message. */
  public String hops() {
    return String.join("\n", hops);
  }

  private HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      // as a browser asks for pages (a provider sends others a 401, not its login form)
      request.setHeader("accept", "text/html,application/xhtml+xml,*/*;q=0.8");
      HttpResponse<String> answer =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      hops.add(
          answer.request().method()
              + " "
              + answer.uri()
              + " -> "
              + answer.statusCode()
              + " "
              + answer.headers().firstValue("location").orElse(""));
      return answer;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Follows redirects from {@code answer} until one leads to a path ending in {@code stopAt} or
   * {@code orAt} (its query not counted: an authorization request names the callback in it) or none
   * is left.
   */
  public HttpResponse<String> follow(HttpResponse<String> answer, String stopAt, String orAt) {
    HttpResponse<String> at = answer;
    for (int hops = 0; hops < 20 && location(at) != null; hops++) {
      String next = location(at);
      String path = URI.create(next).getPath();
      if (path.endsWith(stopAt) || path.endsWith(orAt)) {
        return at;
      }
      at = get(next);
    }
    return at;
  }

  /** Where {@code answer} redirects to, absolute; null when it does not. */
  public static String location(HttpResponse<String> answer) {
    return answer
        .headers()
        .firstValue("location")
        .map(l -> answer.uri().resolve(l).toString())
        .orElse(null);
  }

  /**
   * Starts signing in with {@code provider} and, at the OpenID Connect provider's login form, signs
   * in as {@code user}: the answer that sends the browser back to the gateway's callback (not
   * followed yet).
   */
  public HttpResponse<String> toCallback(String provider, String user, String password) {
    HttpResponse<String> at =
        follow(get("/ui/sign-in/" + provider + "?next=%2Fui%2F"), "/login", "/callback");
    if (location(at) != null && URI.create(location(at)).getPath().endsWith("/login")) {
      HttpResponse<String> form = get(location(at));
      at =
          post(
              form.uri().toString(),
              "username="
                  + encode(user)
                  + "&password="
                  + encode(password)
                  + "&_csrf="
                  + encode(csrf(form.body())));
    }
    return follow(at, "/callback", "/callback");
  }

  /** The whole trip: the gateway's last answer (a 303 into the dashboard when signed in). */
  public HttpResponse<String> signIn(String provider, String user, String password) {
    HttpResponse<String> back = toCallback(provider, user, password);
    if (location(back) == null) {
      throw new AssertionError(
          "the provider did not send the browser back:\n" + hops() + "\n" + back.body());
    }
    return get(location(back));
  }

  /** The dashboard session cookie this browser holds now; null when none. */
  public String session() {
    return cookies.getCookieStore().getCookies().stream()
        .filter(c -> c.getName().equals("trainyard_session") && !c.hasExpired())
        .map(HttpCookie::getValue)
        .findFirst()
        .orElse(null);
  }

  private static String csrf(String page) {
    Matcher m = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"").matcher(page);
    if (!m.find()) {
      throw new IllegalStateException("no CSRF token on the provider's login form:\n" + page);
    }
    return m.group(1);
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
