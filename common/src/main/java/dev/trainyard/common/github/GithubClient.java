package dev.trainyard.common.github;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.telemetry.ScmCalls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;

/**
 * GitHub's REST API for one App (API.md §6 "The GitHub App adapter"), blocking, for the worker's
 * effect and poll threads. Calls run as the App (its JWT) or as one installation, whose token is
 * fetched on first use and reused until {@link #TOKEN_MARGIN} before it expires. GitHub's limits
 * are honoured: a {@code Retry-After} (secondary limit) or an exhausted {@code x-ratelimit} makes
 * the call wait and try again, up to {@link #MAX_WAIT} in all; past that the call fails and is
 * retried by its caller later, so nothing is lost. A secondary limit without {@code Retry-After} (a
 * 429, or a 403 saying so) is never waited out on the caller's thread: the App, or the
 * installation, pauses for at least {@link #SECONDARY_PAUSE}, doubling while GitHub keeps limiting
 * it, and every call in the pause fails at once without reaching GitHub (GitHub warns that
 * integrations calling on while limited may be banned).
 */
public final class GithubClient {
  static final Duration TOKEN_MARGIN = Duration.ofMinutes(5);
  static final Duration MAX_WAIT = Duration.ofSeconds(60);
  static final Duration SECONDARY_PAUSE = Duration.ofSeconds(60);
  static final Duration MAX_SECONDARY_PAUSE = Duration.ofMinutes(16);
  private static final int MAX_TAGGED = 10_000;
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private final URI api;
  private final AppJwt jwt;
  private final HttpClient http;
  private volatile ScmCalls calls = ScmCalls.NONE;
  private final InstantSource clock;
  private final Sleeper sleeper;
  private final Map<Scope, Token> tokens = new ConcurrentHashMap<>();

  /**
   * What a token may reach: one repository of the installation ({@code repository} its name), or
   * (null) every repository the installation covers.
   */
  private record Scope(long installation, String repository) {}

  private volatile Long appId;

  /** A call's answer: its status and JSON body ({@link NullNode} when it had none). */
  public record Answer(int status, JsonNode body, String link) {
    public Answer(int status, JsonNode body) {
      this(status, body, null);
    }

    public boolean ok() {
      return status / 100 == 2;
    }

    /** The next page's URL from GitHub's {@code Link} header ({@code rel="next"}), if any. */
    public java.util.Optional<String> next() {
      if (link == null) {
        return java.util.Optional.empty();
      }
      for (String part : link.split(",")) {
        String[] pieces = part.split(";");
        if (pieces.length > 1
            && pieces[1].strip().equals("rel=\"next\"")
            && pieces[0].strip().startsWith("<")
            && pieces[0].strip().endsWith(">")) {
          String url = pieces[0].strip();
          return java.util.Optional.of(url.substring(1, url.length() - 1));
        }
      }
      return java.util.Optional.empty();
    }

    /** GitHub's own sentence for an error answer. */
    public String message() {
      return body.path("message").asString("no message");
    }
  }

  /** How a call waits out a rate limit; tests pass a clock that moves instead of sleeping. */
  public interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;

    Sleeper THREAD = d -> Thread.sleep(d.toMillis());
  }

  private record Token(String value, Instant expires) {}

  /** A secondary limit's pause: until when, and how long the last one was. */
  private record Pause(Instant until, Duration length) {}

  /** Pauses by who calls: {@code app}, or {@code installation <id>}. */
  private final Map<String, Pause> pauses = new ConcurrentHashMap<>();

  /** An answer with the {@code ETag} GitHub gave it. */
  /** An answer with the {@code ETag} GitHub gave it. */
  private record Sent(Answer answer, String etag) {}

  private record Tagged(String etag, Answer answer) {}

  /** The last tagged answer of each GET, per installation; the least recently used go first. */
  private final Map<String, Tagged> tagged =
      java.util.Collections.synchronizedMap(
          new java.util.LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Tagged> eldest) {
              return size() > MAX_TAGGED;
            }
          });

  /**
   * The client of App {@code appId} with its private key ({@code TRAINYARD_GITHUB_PRIVATE_KEY}, PEM
   * as GitHub hands it out) at {@code api} ({@code TRAINYARD_GITHUB_API_URL}).
   *
   * @throws IOException when the key cannot be read
   */
  public static GithubClient create(
      URI api, String appId, String privateKeyPem, InstantSource clock, Sleeper sleeper)
      throws IOException {
    return new GithubClient(
        api,
        new AppJwt(appId, AppKey.read(privateKeyPem), clock),
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10))
            // GitHub redirects calls on a renamed or transferred repository to its new name
            .followRedirects(HttpClient.Redirect.NORMAL)
            .build(),
        clock,
        sleeper);
  }

  /** Reports each call and GitHub's remaining rate limit to {@code calls} (set once, at start). */
  public GithubClient meteredBy(ScmCalls calls) {
    this.calls = calls;
    return this;
  }

  GithubClient(URI api, AppJwt jwt, HttpClient http, InstantSource clock, Sleeper sleeper) {
    this.api = api;
    this.jwt = jwt;
    this.http = http;
    this.clock = clock;
    this.sleeper = sleeper;
  }

  /**
   * The App's numeric id: {@code TRAINYARD_GITHUB_APP_ID} when it is one, else (a client id) what
   * {@code GET /app} answers; null while GitHub cannot say. Check runs and suites carry it.
   */
  public Long appId() {
    Long known = appId;
    if (known == null) {
      String issuer = jwt.issuer();
      if (issuer.matches("\\d{1,18}")) {
        known = Long.valueOf(issuer);
      } else {
        Answer app = asApp("GET", "/app", null);
        known =
            app.ok() && app.body().path("id").isNumber() ? app.body().path("id").asLong() : null;
      }
      appId = known;
    }
    return known;
  }

  /** A call as the App itself (installations, the installation of a repository). */
  public Answer asApp(String method, String path, Object body) {
    return call("app", method, path, body, "Bearer " + jwt.token(), null).answer();
  }

  /**
   * A call as installation {@code installation}. A 401 drops its cached token (GitHub revoked it,
   * or the installation was removed) and is tried once more with a fresh one.
   */
  public Answer as(long installation, String method, String path, Object body) {
    Scope scope = new Scope(installation, repository(path));
    Sent sent = conditional(scope, method, path, body);
    if (sent.answer().status() == 401) {
      tokens.remove(scope);
      sent = conditional(scope, method, path, body);
    }
    return sent.answer();
  }

  /**
   * A query of GitHub's GraphQL API as installation {@code installation}: {@code /graphql} beside
   * the REST API ({@code https://api.github.com/graphql}; on GitHub Enterprise Server, whose REST
   * API is {@code /api/v3}, {@code /api/graphql}). GraphQL answers 200 with {@code errors} for a
   * query it could not answer: the caller reads {@code data}.
   */
  public Answer graphql(long installation, String query, Map<String, Object> variables) {
    String base = api.toString().replaceAll("/+$", "");
    String url =
        base.endsWith("/api/v3")
            ? base.substring(0, base.length() - "v3".length()) + "graphql"
            : base + "/graphql";
    // GraphQL's limit is its own: a spent one pauses GraphQL calls, not the REST ones
    Scope scope = new Scope(installation, null);
    Map<String, Object> body = Map.of("query", query, "variables", variables);
    Answer answer = graphqlCall(scope, url, body);
    if (answer.status() == 401) {
      tokens.remove(scope);
      answer = graphqlCall(scope, url, body);
    }
    return answer;
  }

  private Answer graphqlCall(Scope scope, String url, Map<String, Object> body) {
    return call("graphql " + scope.installation(), "POST", url, body, "token " + token(scope), null)
        .answer();
  }

  /**
   * The repository a call under {@code /repos/{owner}/{name}} is on, which its token is limited to:
   * a token leaked from one queue's work reaches no other repository of the installation.
   */
  private static String repository(String path) {
    if (!path.startsWith("/repos/")) {
      return null;
    }
    String[] parts = path.split("[/?]", 5);
    return parts.length >= 4 && !parts[3].isEmpty() ? parts[3] : null;
  }

  /**
   * A GET is sent with the {@code ETag} of its last answer; GitHub's 304 (which costs no rate
   * limit: the poller reads every queued PR each round) gives that answer again.
   */
  private Sent conditional(Scope scope, String method, String path, Object body) {
    long installation = scope.installation();
    String authorization = "token " + token(scope);
    if (!method.equals("GET")) {
      return call("installation " + installation, method, path, body, authorization, null);
    }
    String key = installation + " " + path;
    Tagged last = tagged.get(key);
    Sent sent =
        call(
            "installation " + installation,
            method,
            path,
            null,
            authorization,
            last == null ? null : last.etag());
    if (sent.answer().status() == 304 && last != null) {
      return new Sent(last.answer(), last.etag());
    }
    if (sent.answer().status() == 200 && sent.etag() != null) {
      tagged.put(key, new Tagged(sent.etag(), sent.answer()));
    } else {
      tagged.remove(key);
    }
    return sent;
  }

  /**
   * A token of {@code scope}, cached until five minutes before it expires. GitHub refuses a token
   * for a repository it does not find under that name in the installation (a repository renamed
   * since: the call's redirect will reach it): such a call gets a token of the whole installation.
   */
  private String token(Scope scope) {
    Token cached = tokens.get(scope);
    if (cached != null && clock.instant().isBefore(cached.expires().minus(TOKEN_MARGIN))) {
      return cached.value();
    }
    long installation = scope.installation();
    Answer issued =
        asApp(
            "POST",
            "/app/installations/" + installation + "/access_tokens",
            scope.repository() == null
                ? null
                : Map.of("repositories", java.util.List.of(scope.repository())));
    if (scope.repository() != null && (issued.status() == 422 || issued.status() == 404)) {
      return token(new Scope(installation, null));
    }
    if (issued.status() != 201) {
      throw new GithubException(
          issued.status(),
          "GitHub gave no token for installation "
              + installation
              + " (HTTP "
              + issued.status()
              + "): "
              + issued.message());
    }
    Token fresh =
        new Token(
            issued.body().path("token").asString(),
            Instant.parse(issued.body().path("expires_at").asString()));
    tokens.put(scope, fresh);
    return fresh.value();
  }

  private Sent call(
      String caller,
      String method,
      String path,
      Object body,
      String authorization,
      String ifNoneMatch) {
    Pause paused = pauses.get(caller);
    if (paused != null && clock.instant().isBefore(paused.until())) {
      throw new GithubException(
          429,
          "GitHub's rate limit pauses calls as the "
              + caller
              + " until "
              + paused.until()
              + "; the call is tried again later");
    }
    Duration waited = Duration.ZERO;
    while (true) {
      HttpResponse<byte[]> response = send(method, path, body, authorization, ifNoneMatch);
      if (secondaryWithoutRetryAfter(response)) {
        Duration length =
            paused == null
                ? SECONDARY_PAUSE
                : min(paused.length().multipliedBy(2), MAX_SECONDARY_PAUSE);
        Instant until = clock.instant().plus(length);
        pauses.put(caller, new Pause(until, length));
        calls.limited("secondary");
        throw new GithubException(
            response.statusCode(),
            "GitHub's secondary rate limit: calls as the "
                + caller
                + " pause for "
                + length.toSeconds()
                + " s; the call is tried again later");
      }
      if (paused != null) {
        pauses.remove(caller, paused); // answered without a limit: the next one starts short
      }
      Optional<Duration> wait = limited(response);
      if (wait.isPresent() && spentPrimary(response)) {
        // GitHub may ban an integration that calls on through a spent limit: every thread of
        // this caller stops until the reset, not only this one
        pauses.put(caller, new Pause(clock.instant().plus(wait.get()), wait.get()));
        calls.limited("primary");
      } else if (wait.isPresent()) {
        calls.limited("secondary");
      }
      if (wait.isEmpty()) {
        byte[] bytes = response.body();
        return new Sent(
            new Answer(
                response.statusCode(),
                bytes.length == 0 ? NullNode.getInstance() : Json.mapper().readTree(bytes),
                response.headers().firstValue("link").orElse(null)),
            response.headers().firstValue("etag").orElse(null));
      }
      if (waited.plus(wait.get()).compareTo(MAX_WAIT) > 0) {
        throw new GithubException(
            response.statusCode(),
            "GitHub's rate limit holds for "
                + wait.get().toSeconds()
                + " s more; the call is tried again later");
      }
      try {
        sleeper.sleep(wait.get());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new GithubException(0, "interrupted while waiting out GitHub's rate limit");
      }
      waited = waited.plus(wait.get());
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  /**
   * A secondary limit that names no wait: a 429, or a 403 whose message says so, with neither
   * {@code Retry-After} nor a spent primary limit. GitHub asks for at least a minute then.
   */
  private static boolean secondaryWithoutRetryAfter(HttpResponse<byte[]> response) {
    int status = response.statusCode();
    if ((status != 403 && status != 429)
        || response.headers().firstValue("retry-after").isPresent()
        || response.headers().firstValue("x-ratelimit-remaining").orElse("").equals("0")) {
      return false;
    }
    return status == 429
        || new String(response.body(), java.nio.charset.StandardCharsets.UTF_8)
            .toLowerCase(java.util.Locale.ROOT)
            .contains("secondary rate limit");
  }

  /** A 403 or 429 with {@code x-ratelimit-remaining: 0}: the primary limit is spent. */
  private static boolean spentPrimary(HttpResponse<byte[]> response) {
    return (response.statusCode() == 403 || response.statusCode() == 429)
        && response.headers().firstValue("x-ratelimit-remaining").orElse("").equals("0");
  }

  /**
   * How long GitHub asks to wait: {@code Retry-After} on a 403 or 429 (a secondary limit), or until
   * {@code x-ratelimit-reset} when {@code x-ratelimit-remaining} is 0; empty when not limited.
   */
  private Optional<Duration> limited(HttpResponse<byte[]> response) {
    int status = response.statusCode();
    if (status != 403 && status != 429) {
      return Optional.empty();
    }
    Optional<String> retryAfter = response.headers().firstValue("retry-after");
    if (retryAfter.isPresent() && retryAfter.get().matches("\\d{1,6}")) {
      return Optional.of(Duration.ofSeconds(Math.max(1, Long.parseLong(retryAfter.get()))));
    }
    if (response.headers().firstValue("x-ratelimit-remaining").orElse("").equals("0")) {
      long reset = response.headers().firstValueAsLong("x-ratelimit-reset").orElse(0);
      Duration until = Duration.between(clock.instant(), Instant.ofEpochSecond(reset));
      return Optional.of(until.isNegative() ? Duration.ofSeconds(1) : until.plusSeconds(1));
    }
    return Optional.empty();
  }

  /**
   * Sends a call with the App's or an installation's credentials. An absolute URL (a {@code Link}
   * header's next page, a redirect's {@code Location}, GraphQL beside the REST API) is followed
   * only to the API's own scheme, host and port: the credentials never go anywhere else, whatever
   * an answer names.
   */
  private HttpResponse<byte[]> send(
      String method, String path, Object body, String authorization, String ifNoneMatch) {
    boolean absolute = path.startsWith("https://") || path.startsWith("http://");
    URI target = URI.create(absolute ? path : api.toString().replaceAll("/+$", "") + path);
    if (absolute && !origin(target).equals(origin(api))) {
      throw new GithubException(
          0,
          "an answer of GitHub's API at "
              + origin(api)
              + " led to "
              + origin(target)
              + "; the App's credentials go to the API alone, so it was not called");
    }
    HttpRequest.Builder request =
        HttpRequest.newBuilder(target)
            .timeout(TIMEOUT)
            .header("Accept", "application/vnd.github+json")
            .header("X-GitHub-Api-Version", "2022-11-28")
            .header("User-Agent", "trainyard")
            .header("Authorization", authorization);
    if (ifNoneMatch != null) {
      request.header("If-None-Match", ifNoneMatch);
    }
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request
          .header("Content-Type", "application/json")
          .method(
              method,
              HttpRequest.BodyPublishers.ofByteArray(Json.mapper().writeValueAsBytes(body)));
    }
    long start = System.nanoTime();
    try {
      HttpResponse<byte[]> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      calls.record(
          "github", ScmCalls.statusClass(response.statusCode()), System.nanoTime() - start);
      response
          .headers()
          .firstValueAsLong("x-ratelimit-remaining")
          .ifPresent(calls::rateLimitRemaining);
      return response;
    } catch (IOException e) {
      calls.record("github", "error", System.nanoTime() - start);
      throw new UncheckedIOException("GitHub could not be reached at " + api + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new GithubException(0, "interrupted while calling GitHub");
    }
  }

  /** Scheme, host and port (the default port of the scheme when none is written), in lower case. */
  private static String origin(URI uri) {
    String scheme = String.valueOf(uri.getScheme()).toLowerCase(java.util.Locale.ROOT);
    int port = uri.getPort() != -1 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
    return scheme
        + "://"
        + String.valueOf(uri.getHost()).toLowerCase(java.util.Locale.ROOT)
        + ":"
        + port;
  }

  /**
   * {@code branch} as URL path segments, each percent-encoded (as in {@code
   * /git/refs/heads/<branch>}); a segment of only dots is encoded too, so no name can climb out of
   * the path it is put in ({@code /branches/../../x}), whatever the edge let through.
   */
  public static String segments(String branch) {
    StringBuilder path = new StringBuilder();
    for (String segment : branch.split("/", -1)) {
      if (path.length() > 0) {
        path.append('/');
      }
      String encoded = URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
      path.append(segment.matches("\\.+") ? encoded.replace(".", "%2E") : encoded);
    }
    return path.toString();
  }
}
