package dev.trainyard.worker.scm.github;

import com.sun.net.httpserver.HttpExchange;
import dev.trainyard.common.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * GitHub's sign-in for people (an OAuth App's web flow, as docs.github.com describes it): {@code
 * GET /login/oauth/authorize} approves as the person the test says is at the keyboard and sends the
 * browser back to the app's callback with a code and the state (or, refused, with {@code
 * error=access_denied}); {@code POST /login/oauth/access_token} redeems a code once, within ten
 * minutes, for the app that asked for it, answering GitHub's way — HTTP 200 with an {@code error}
 * field for a bad code or wrong credentials; the user token then reads {@code /user}, {@code
 * /user/teams} and {@code /user/orgs}, whose answers start from GitHub's own examples. A redirect
 * URI must lie under the registered callback, and a loopback one may name any port, as GitHub
 * allows; a code asked for with a PKCE challenge is redeemed only with its verifier.
 */
final class PeopleSignIn {
  private static final Duration CODE_LIFETIME = Duration.ofMinutes(10);

  /** A person who may sign in: their login, id, and teams as {@code org/team-slug}. */
  record Person(String login, long id, List<String> teams) {}

  private record App(String clientId, String secret, URI callback) {}

  /** An issued code: for whom, and the PKCE challenge it was asked with (null: none). */
  private record Code(
      String clientId, String redirectUri, String login, Instant expires, String challenge) {}

  private final GithubSimulator github;
  private final InstantSource clock;
  private final Map<String, Person> people = new ConcurrentHashMap<>();
  private final Map<String, App> apps = new ConcurrentHashMap<>();
  private final Map<String, Code> codes = new ConcurrentHashMap<>();
  private final Map<String, String> userTokens = new ConcurrentHashMap<>();
  private final AtomicReference<String> atTheKeyboard = new AtomicReference<>();
  private final Set<String> refusing = ConcurrentHashMap.newKeySet();

  PeopleSignIn(GithubSimulator github, InstantSource clock) {
    this.github = github;
    this.clock = clock;
  }

  void app(String clientId, String secret, URI callback) {
    apps.put(clientId, new App(clientId, secret, callback));
  }

  void person(Person person) {
    people.put(person.login(), person);
  }

  /** Who approves the next authorizations; {@code refuses}: they press Cancel instead. */
  void atTheKeyboard(String login, boolean refuses) {
    atTheKeyboard.set(login);
    if (refuses) {
      refusing.add(login);
    } else {
      refusing.remove(login);
    }
  }

  /** The web flow's two URLs on github.com (not the REST API, so not in its description). */
  void web(HttpExchange exchange, String method, String path, byte[] body) throws IOException {
    URI uri = exchange.getRequestURI();
    if (method.equals("GET") && uri.getPath().equals("/login/oauth/authorize")) {
      authorize(exchange, form(uri.getRawQuery()));
    } else if (method.equals("POST") && uri.getPath().equals("/login/oauth/access_token")) {
      Map<String, String> params = form(new String(body, StandardCharsets.UTF_8));
      basicCredentials(exchange, params);
      json(exchange, accessToken(params));
    } else {
      exchange.sendResponseHeaders(404, -1);
    }
  }

  private void authorize(HttpExchange exchange, Map<String, String> query) throws IOException {
    App app = apps.get(query.getOrDefault("client_id", ""));
    if (app == null) {
      exchange.sendResponseHeaders(404, -1); // GitHub's "page not found" for an unknown app
      return;
    }
    String redirect = query.getOrDefault("redirect_uri", app.callback().toString());
    String state = query.get("state");
    String login = atTheKeyboard.get();
    String location;
    if (!under(URI.create(redirect), app.callback())) {
      location =
          app.callback()
              + "?error=redirect_uri_mismatch&error_description="
              + encode(
                  "The redirect_uri MUST match the registered callback URL for this application.")
              + stateParam(state);
    } else if (login == null || refusing.contains(login)) {
      location =
          redirect
              + "?error=access_denied&error_description="
              + encode("The user has denied your application access.")
              + stateParam(state);
    } else {
      String code = UUID.randomUUID().toString().replace("-", "").substring(0, 20);
      Instant expires = clock.instant().plus(CODE_LIFETIME);
      codes.put(
          code, new Code(app.clientId(), redirect, login, expires, query.get("code_challenge")));
      location = redirect + "?code=" + code + stateParam(state);
    }
    exchange.getResponseHeaders().add("Location", location);
    exchange.sendResponseHeaders(302, -1);
  }

  private JsonNode accessToken(Map<String, String> params) {
    App app = apps.get(params.getOrDefault("client_id", ""));
    if (app == null || !app.secret().equals(params.get("client_secret"))) {
      return error(
          "incorrect_client_credentials",
          "The client_id and/or client_secret passed are incorrect.");
    }
    Code code = codes.remove(params.getOrDefault("code", ""));
    if (code == null
        || !code.clientId().equals(app.clientId())
        || !clock.instant().isBefore(code.expires())) {
      return error("bad_verification_code", "The code passed is incorrect or expired.");
    }
    if (code.challenge() != null && !code.challenge().equals(s256(params.get("code_verifier")))) {
      // GitHub checks PKCE when the authorization asked with a challenge (S256)
      return error("bad_verification_code", "The code passed is incorrect or expired.");
    }
    if (params.containsKey("redirect_uri")
        && !params.get("redirect_uri").equals(code.redirectUri())) {
      return error(
          "redirect_uri_mismatch",
          "The redirect_uri MUST match the registered callback URL for this application.");
    }
    String token = "gho_" + UUID.randomUUID().toString().replace("-", "");
    userTokens.put(token, code.login());
    return Json.mapper()
        .createObjectNode()
        .put("access_token", token)
        .put("scope", "read:org,read:user")
        .put("token_type", "bearer");
  }

  /** {@code /user}, {@code /user/teams}, {@code /user/orgs} for a user token; null for others. */
  GithubSimulator.Answer rest(String method, String path, String authorization) {
    String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
    if (!method.equals("GET") || !Set.of("/user", "/user/teams", "/user/orgs").contains(bare)) {
      return null;
    }
    String login =
        authorization == null
            ? null
            : userTokens.get(authorization.replaceFirst("^(?i)(bearer|token) ", ""));
    Person person = login == null ? null : people.get(login);
    if (person == null) {
      return new GithubSimulator.Answer(401, GithubSimulator.message("Bad credentials"));
    }
    return switch (bare) {
      case "/user" -> new GithubSimulator.Answer(200, user(person));
      case "/user/teams" -> new GithubSimulator.Answer(200, teams(person));
      default -> new GithubSimulator.Answer(200, orgs(person));
    };
  }

  private JsonNode user(Person person) {
    ObjectNode user = (ObjectNode) github.example("GET", "/user", 200).deepCopy();
    return user.put("login", person.login()).put("id", person.id());
  }

  private JsonNode teams(Person person) {
    JsonNode template = github.example("GET", "/user/teams", 200).get(0);
    ArrayNode teams = Json.mapper().createArrayNode();
    for (String team : person.teams()) {
      ObjectNode t = (ObjectNode) template.deepCopy();
      String org = team.substring(0, team.indexOf('/'));
      String slug = team.substring(team.indexOf('/') + 1);
      // the description's example lacks two fields its schema requires; GitHub sends them
      t.put("slug", slug).put("name", slug).put("type", "organization");
      ((ObjectNode) t.get("organization")).put("login", org).putNull("archived_at");
      teams.add(t);
    }
    return teams;
  }

  private JsonNode orgs(Person person) {
    JsonNode template = github.example("GET", "/user/orgs", 200).get(0);
    ArrayNode orgs = Json.mapper().createArrayNode();
    person.teams().stream()
        .map(t -> t.substring(0, t.indexOf('/')))
        .distinct()
        .forEach(org -> orgs.add(((ObjectNode) template.deepCopy()).put("login", org)));
    return orgs;
  }

  /** Under the registered callback: same scheme, host and path prefix; any port on loopback. */
  private static boolean under(URI redirect, URI callback) {
    boolean loopback = "127.0.0.1".equals(callback.getHost());
    return redirect.getScheme().equals(callback.getScheme())
        && redirect.getHost().equals(callback.getHost())
        && (loopback || redirect.getPort() == callback.getPort())
        && redirect.getPath().startsWith(callback.getPath());
  }

  private static String s256(String verifier) {
    if (verifier == null) {
      return null;
    }
    try {
      byte[] digest =
          java.security.MessageDigest.getInstance("SHA-256")
              .digest(verifier.getBytes(StandardCharsets.US_ASCII));
      return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void basicCredentials(HttpExchange exchange, Map<String, String> params) {
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    if (header != null && header.startsWith("Basic ")) {
      String pair =
          new String(
              java.util.Base64.getDecoder().decode(header.substring(6)), StandardCharsets.UTF_8);
      int colon = pair.indexOf(':');
      params.putIfAbsent("client_id", decode(pair.substring(0, colon)));
      params.putIfAbsent("client_secret", decode(pair.substring(colon + 1)));
    }
  }

  private static JsonNode error(String code, String description) {
    return Json.mapper()
        .createObjectNode()
        .put("error", code)
        .put("error_description", description)
        .put(
            "error_uri",
            "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors");
  }

  /** GitHub answers the token request in JSON when asked to (and errors with HTTP 200). */
  private static void json(HttpExchange exchange, JsonNode body) throws IOException {
    byte[] bytes = Json.mapper().writeValueAsBytes(body);
    exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
    exchange.sendResponseHeaders(200, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  static Map<String, String> form(String encoded) {
    Map<String, String> values = new HashMap<>();
    if (encoded == null || encoded.isEmpty()) {
      return values;
    }
    for (String pair : encoded.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        values.put(decode(pair.substring(0, eq)), decode(pair.substring(eq + 1)));
      }
    }
    return values;
  }

  private static String stateParam(String state) {
    return state == null ? "" : "&state=" + encode(state);
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private static String decode(String value) {
    return URLDecoder.decode(value, StandardCharsets.UTF_8);
  }
}
