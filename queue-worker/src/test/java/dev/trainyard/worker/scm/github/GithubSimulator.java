package dev.trainyard.worker.scm.github;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.trainyard.common.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.util.FileSystemUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * GitHub for the tests: an HTTP server answering the REST calls of a GitHub App. Every request it
 * gets and every response it gives are checked against GitHub's official REST description ({@link
 * OpenApiContract}); a breach fails the test that caused it ({@link #problems()}), so the simulator
 * cannot drift from GitHub and the adapter cannot call an endpoint or send a field GitHub does not
 * have. Its answers start from the description's own examples. The App's key is generated here and
 * handed out in GitHub's format (PKCS#1 PEM); App calls must carry a valid RS256 JWT of it,
 * installation calls a token it issued and that has not expired.
 */
public final class GithubSimulator implements AutoCloseable {
  public static final long APP_ID = 4242;
  private static final Pattern INSTALLATION_TOKENS =
      Pattern.compile("/app/installations/(\\d+)/access_tokens");
  private static final Pattern REPO = Pattern.compile("/repos/([^/]+)/([^/]+)(/.*)?");
  private static final Pattern APP_SLUG = Pattern.compile("/apps/([A-Za-z0-9-]+)");
  private static final Pattern DELIVERY_ATTEMPTS =
      Pattern.compile("/app/hook/deliveries/(\\d+)/attempts");
  private static final Pattern GRAPHQL_PULL =
      Pattern.compile("(\\w+): pullRequest\\(number: (\\d+)\\)");

  private final OpenApiContract contract;
  private final InstantSource clock;
  private final HttpServer server;
  private final KeyPair appKey;
  private final Map<Long, Set<String>> installations = new ConcurrentHashMap<>();
  private final Map<Long, Set<String>> uninstalled = new ConcurrentHashMap<>();
  private final Map<String, Issued> tokens = new ConcurrentHashMap<>();
  private final Map<String, SimulatedRepository> repositories = new ConcurrentHashMap<>();

  /** The repositories each issued token was limited to, in order (empty: all). */
  private final List<Set<String>> issuedScopes = new CopyOnWriteArrayList<>();

  /** Names repositories had before a rename or transfer (folded), and the name they have now. */
  private final Map<String, String> moved = new ConcurrentHashMap<>();

  private final Path dir;
  private final Webhooks webhooks = new Webhooks(this);
  private final PeopleSignIn people;
  private final AppManifests manifests;
  private final List<String> problems = new CopyOnWriteArrayList<>();
  private final List<String> calls = new CopyOnWriteArrayList<>();
  private final List<String> answered = new CopyOnWriteArrayList<>();
  private final Set<String> forbidden = ConcurrentHashMap.newKeySet();
  private final Map<String, Long> apps = new ConcurrentHashMap<>();
  private final Map<String, Duration> slow = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<Limit> limits = new ConcurrentLinkedQueue<>();
  private volatile Duration tokenLifetime = Duration.ofHours(1);

  /** A token: its installation, expiry, and the repository names it is limited to (null: all). */
  /**
   * A token GitHub issued; {@code repositories} are the ids of the repositories it is limited to
   * (null: all of its installation's). GitHub resolves the names a token is asked for to
   * repositories at issuance, so a limited token still reaches its repository after a rename or
   * transfer (through the redirect).
   */
  private record Issued(long installation, Instant expires, Set<Long> repositories) {}

  /** A rate-limit answer to give instead of the next call's. */
  private record Limit(int status, Map<String, String> headers, String message) {
    Limit(int status, Map<String, String> headers) {
      this(status, headers, "API rate limit exceeded");
    }
  }

  public GithubSimulator(OpenApiContract contract, InstantSource clock) throws IOException {
    this.contract = contract;
    this.clock = clock;
    this.appKey = rsa();
    this.people = new PeopleSignIn(this, clock);
    this.manifests = new AppManifests(this, clock);
    this.dir = Files.createTempDirectory("github-simulator");
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    // GitHub answers many calls at once; a slow one (slow()) must not hold up the others
    server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(8));
    server.start();
  }

  public URI api() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** The App's private key as GitHub hands it out: PKCS#1 ({@code BEGIN RSA PRIVATE KEY}). */
  public String privateKeyPem() {
    return pkcs1Pem(appKey);
  }

  /**
   * An App a person created from a manifest ({@link AppManifests}): its manifest and the key and
   * secrets GitHub handed out for it; empty when no such App was created.
   */
  public Optional<CreatedApp> createdApp(long id) {
    return Optional.ofNullable(manifests.created().get(id))
        .map(
            c ->
                new CreatedApp(
                    c.manifest(),
                    pkcs1Pem(c.key()),
                    c.webhookSecret(),
                    c.clientId(),
                    c.clientSecret()));
  }

  /** What a test may know of an App created from a manifest. */
  public record CreatedApp(
      JsonNode manifest,
      String privateKeyPem,
      String webhookSecret,
      String clientId,
      String clientSecret) {}

  static String pkcs1Pem(KeyPair key) {
    byte[] pkcs8 = key.getPrivate().getEncoded();
    // PKCS#8 wraps the PKCS#1 key after a fixed 26-byte header for RSA keys of this size
    byte[] pkcs1 = java.util.Arrays.copyOfRange(pkcs8, 26, pkcs8.length);
    return "-----BEGIN RSA PRIVATE KEY-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(pkcs1)
        + "\n-----END RSA PRIVATE KEY-----\n";
  }

  /**
   * Installs the App on {@code owner/name} (created, empty, when it does not exist yet):
   * installation {@code id} covers it.
   */
  public SimulatedRepository install(long id, String owner, String name) {
    installations.computeIfAbsent(id, k -> ConcurrentHashMap.newKeySet()).add(folded(owner, name));
    return repository(owner, name);
  }

  /** The repository {@code owner/name}, created empty on first use. */
  public SimulatedRepository repository(String owner, String name) {
    return repositories.computeIfAbsent(
        folded(owner, name),
        key -> {
          try {
            return new SimulatedRepository(
                this, owner + "/" + name, dir.resolve(owner).resolve(name + ".git"));
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
  }

  /**
   * A repository's key here: GitHub's owner and repository names are case-insensitive ({@code
   * acme/webapp} reaches {@code Acme/WebApp}), while answers carry the names as created.
   */
  private static String folded(String owner, String name) {
    return (owner + "/" + name).toLowerCase(java.util.Locale.ROOT);
  }

  private static String folded(String fullName) {
    return fullName.toLowerCase(java.util.Locale.ROOT);
  }

  /** {@code repo}, called {@code old} so far, is now {@code now}: its installation keeps it. */
  void renamed(SimulatedRepository repo, String old, String now) {
    repositories.remove(folded(old));
    repositories.put(folded(now), repo);
    for (Set<String> names : installations.values()) {
      if (names.remove(folded(old))) {
        names.add(folded(now));
      }
    }
    moved.put(folded(old), now);
  }

  /** The installation covering {@code fullName}, if any. */
  java.util.Optional<Long> installationOf(String fullName) {
    return installations.entrySet().stream()
        .filter(e -> e.getValue().contains(folded(fullName)))
        .map(Map.Entry::getKey)
        .findFirst();
  }

  /** Where repository events go: GitHub's webhook deliveries, signed with {@code secret}. */
  public Webhooks webhooks() {
    return webhooks;
  }

  /**
   * The App loses (true) or regains a permission: calls on any repository's {@code rest} paths
   * starting with {@code prefix} (as {@code /pulls}) get GitHub's 403.
   */
  public void forbid(String prefix, boolean forbid) {
    if (forbid) {
      forbidden.add(prefix);
    } else {
      forbidden.remove(prefix);
    }
  }

  /**
   * GitHub knows App {@code slug} as {@code id} ({@code GET /apps/{slug}}); its Bot account is
   * {@code <slug>[bot]}.
   */
  public void registerApp(String slug, long id) {
    apps.put(slug, id);
  }

  /** The id of App {@code slug} ({@link #registerApp}); 0 for one GitHub does not know. */
  long appId(String slug) {
    return apps.getOrDefault(slug, 0L);
  }

  /** Takes {@code owner/name} out of installation {@code id}; its tokens keep working elsewhere. */
  public void removeFromInstallation(long id, String owner, String name) {
    installations.getOrDefault(id, Set.of()).remove(folded(owner, name));
  }

  /**
   * Calls on any repository's {@code rest} paths starting with {@code prefix} take {@code delay}
   * before GitHub answers them (zero: at once again).
   */
  public void slow(String prefix, Duration delay) {
    if (delay.isZero()) {
      slow.remove(prefix);
    } else {
      slow.put(prefix, delay);
    }
  }

  /**
   * Removes every repository from installation {@code id}, as the owner's "Repository access"
   * settings do: its tokens stop working, and GitHub delivers {@code installation_repositories}
   * {@code removed} naming them.
   */
  public void uninstall(long id) {
    Set<String> had = installations.remove(id);
    if (had != null) {
      uninstalled.put(id, had);
      webhooks.installationRepositories(id, reposNamed(had), false);
    }
    tokens.values().removeIf(t -> t.installation() == id);
  }

  /**
   * Gives removed installation {@code id} every repository it had again, as the same settings do:
   * other queues on those repositories work again, not only the one a test looks at, and GitHub
   * delivers {@code installation_repositories} {@code added}.
   */
  public void reinstall(long id) {
    Set<String> had = uninstalled.remove(id);
    if (had != null) {
      installations.computeIfAbsent(id, k -> ConcurrentHashMap.newKeySet()).addAll(had);
      webhooks.installationRepositories(id, reposNamed(had), true);
    }
  }

  private List<SimulatedRepository> reposNamed(Set<String> folded) {
    return folded.stream().map(repositories::get).filter(java.util.Objects::nonNull).toList();
  }

  public void tokenLifetime(Duration lifetime) {
    tokenLifetime = lifetime;
  }

  /** The next call gets a secondary rate limit: 403 with {@code Retry-After: seconds}. */
  public void secondaryLimit(long seconds) {
    limits.add(new Limit(403, Map.of("retry-after", Long.toString(seconds))));
  }

  /**
   * The next call meets a secondary rate limit that names no wait: a 403 saying so, without {@code
   * Retry-After} (GitHub then asks for at least a minute, longer while it goes on).
   */
  public void secondaryLimitWithoutRetryAfter() {
    limits.add(
        new Limit(
            403,
            Map.of(),
            "You have exceeded a secondary rate limit. Please wait a few minutes before you try"
                + " again."));
  }

  /** The next call finds the primary rate limit spent until {@code reset}. */
  public void primaryLimit(Instant reset) {
    limits.add(
        new Limit(
            403,
            Map.of(
                "x-ratelimit-remaining",
                "0",
                "x-ratelimit-reset",
                Long.toString(reset.getEpochSecond()))));
  }

  /** Every call so far, as {@code METHOD path}. */
  /**
   * A snapshot of every call so far: the list grows while the service runs, and a view of it (a
   * sub-list taken before a later call) would fail when read.
   */
  public List<String> calls() {
    return List.copyOf(calls);
  }

  /**
   * Registers an OAuth App people sign in to (the web flow on {@link #api()}'s {@code
   * /login/oauth/…}): its client id and secret, and its callback URL.
   */
  public void oauthApp(String clientId, String clientSecret, URI callback) {
    people.app(clientId, clientSecret, callback);
  }

  /** A GitHub user who can sign in, with their teams written {@code org/team-slug}. */
  public void person(String login, long id, List<String> teams) {
    people.person(new PeopleSignIn.Person(login, id, teams));
  }

  /**
   * Who is at the keyboard when an app sends them to authorize: they approve, or (with {@code
   * refuses}) press Cancel.
   */
  public void atTheKeyboard(String login, boolean refuses) {
    people.atTheKeyboard(login, refuses);
  }

  /** Every breach of GitHub's description so far; a test asserts there is none. */
  public List<String> problems() {
    return new ArrayList<>(problems);
  }

  /**
   * The breaches since the last take, forgotten once taken: a simulator shared by a class's tests
   * fails the test that saw a breach, not every test after it.
   */
  public List<String> takeProblems() {
    List<String> taken = new ArrayList<>(problems);
    problems.removeAll(taken);
    return taken;
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      String query = exchange.getRequestURI().getRawQuery();
      String path = exchange.getRequestURI().getRawPath() + (query == null ? "" : "?" + query);
      calls.add(method + " " + path);
      byte[] raw = exchange.getRequestBody().readAllBytes();
      if (path.startsWith("/login/oauth/")) {
        people.web(exchange, method, path, raw);
        return;
      }
      if (AppManifests.isWeb(exchange.getRequestURI().getPath())) {
        manifests.web(exchange, method, raw); // a page of github.com, not the REST API
        return;
      }
      JsonNode body = raw.length == 0 ? null : Json.mapper().readTree(raw);
      if (method.equals("POST") && path.equals("/graphql")) {
        // GraphQL is not in the REST description: answered here, as GitHub's GraphQL API does
        Answer answer = graphql(exchange.getRequestHeaders().getFirst("Authorization"), body);
        answered.add(method + " " + path + " " + answer.status());
        byte[] bytes = Json.mapper().writeValueAsBytes(answer.body());
        exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(answer.status(), bytes.length);
        exchange.getResponseBody().write(bytes);
        return;
      }
      problems.addAll(contract.checkRequest(method, path, body));
      Limit limit = limits.poll();
      if (limit != null) {
        limit.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
        answer(exchange, method, path, limit.status(), message(limit.message()));
        return;
      }
      Answer answer = route(exchange, method, path, body);
      if (method.equals("GET") && answer.status() == 200) {
        answer = tagged(exchange, path, answer);
      }
      answered.add(method + " " + path + " " + answer.status());
      answer(exchange, method, path, answer.status(), answer.body());
    } catch (RuntimeException e) {
      StackTraceElement[] at = e.getStackTrace();
      problems.add(
          "the simulator failed on "
              + exchange.getRequestMethod()
              + " "
              + exchange.getRequestURI().getRawPath()
              + ": "
              + e
              + (at.length == 0 ? "" : " at " + at[0]));
      exchange.sendResponseHeaders(500, -1);
    }
  }

  record Answer(int status, JsonNode body) {}

  private Answer route(HttpExchange exchange, String method, String path, JsonNode body) {
    String authorization = exchange.getRequestHeaders().getFirst("Authorization");
    Answer personal = people.rest(method, path, authorization);
    if (personal != null) {
      return personal;
    }
    Matcher conversion = AppManifests.CONVERSIONS.matcher(path);
    if (method.equals("POST") && conversion.matches()) {
      return manifests.convert(conversion.group(1), method, path);
    }
    Matcher tokens = INSTALLATION_TOKENS.matcher(path);
    if (method.equals("POST") && tokens.matches()) {
      if (!validJwt(authorization)) {
        return new Answer(401, message("A JSON web token could not be decoded"));
      }
      return issueToken(method, path, Long.parseLong(tokens.group(1)), body);
    }
    Matcher attempts = DELIVERY_ATTEMPTS.matcher(path);
    if (path.startsWith("/app/hook/deliveries")) {
      if (!validJwt(authorization)) {
        return new Answer(401, message("A JSON web token could not be decoded"));
      }
      if (method.equals("POST") && attempts.matches()) {
        return webhooks.redeliverAttempt(Long.parseLong(attempts.group(1)))
            ? new Answer(202, Json.mapper().createObjectNode())
            : new Answer(404, message("Not Found"));
      }
      if (method.equals("GET") && path.matches("/app/hook/deliveries(\\?.*)?")) {
        return hookDeliveries(exchange, method, path);
      }
    }
    Matcher app = APP_SLUG.matcher(path);
    if (method.equals("GET") && app.matches()) {
      Long id = apps.get(app.group(1));
      if (id == null) {
        return new Answer(404, message("Not Found"));
      }
      ObjectNode answer = (ObjectNode) example(method, path, 200);
      answer.put("id", id).put("slug", app.group(1)).put("name", app.group(1));
      return new Answer(200, answer);
    }
    Matcher repo = REPO.matcher(path);
    if (!repo.matches()) {
      return new Answer(404, message("Not Found"));
    }
    String fullName = repo.group(1) + "/" + repo.group(2);
    String rest = repo.group(3) == null ? "" : repo.group(3);
    String movedTo = moved.get(folded(fullName));
    if (movedTo != null && !repositories.containsKey(folded(fullName))) {
      // GitHub's redirect for a renamed or transferred repository: permanent for a read, and a
      // 307 (the same method and body again) for any other call
      String location = api() + "/repos/" + movedTo + path.substring(repo.end(2));
      exchange.getResponseHeaders().add("Location", location);
      return new Answer(
          method.equals("GET") ? 301 : 307,
          ((ObjectNode) message("Moved Permanently")).put("url", location));
    }
    if (method.equals("GET") && rest.equals("/installation")) {
      if (!validJwt(authorization)) {
        return new Answer(401, message("A JSON web token could not be decoded"));
      }
      return installationAnswer(method, path, fullName);
    }
    Issued issued =
        authorization == null ? null : this.tokens.get(authorization.replace("token ", ""));
    if (issued == null
        || !clock.instant().isBefore(issued.expires())
        || !installations.containsKey(issued.installation())) {
      // expired, or revoked with its installation (one issued while it was being removed too)
      return new Answer(401, message("Bad credentials"));
    }
    SimulatedRepository at = repositories.get(folded(fullName));
    if (at == null
        || !installations.getOrDefault(issued.installation(), Set.of()).contains(folded(fullName))
        || (issued.repositories() != null && !issued.repositories().contains(at.id()))) {
      return new Answer(404, message("Not Found")); // a repository the token does not cover
    }
    if (forbidden.stream().anyMatch(rest::startsWith)) {
      return new Answer(403, message("Resource not accessible by integration"));
    }
    slow.entrySet().stream()
        .filter(e -> rest.startsWith(e.getKey()))
        .findFirst()
        .ifPresent(e -> pause(e.getValue()));
    return new RepositoryApi(this, at, method, path, rest, body).answer();
  }

  /**
   * {@code GET /app/hook/deliveries}: the App's delivery attempts, newest first ({@code per_page},
   * at most 100; {@code status=failure}: only those the receiver did not answer with a 2xx), paged
   * by a {@code cursor} that GitHub's {@code Link} header names ({@code rel="next"}).
   */
  private Answer hookDeliveries(HttpExchange exchange, String method, String path) {
    String query = path.contains("?") ? path.substring(path.indexOf('?') + 1) : "";
    boolean failures = query.contains("status=failure");
    Matcher per = Pattern.compile("per_page=(\\d+)").matcher(query);
    int perPage = per.find() ? Math.min(100, Integer.parseInt(per.group(1))) : 30;
    Matcher cursor = Pattern.compile("cursor=(\\d+)").matcher(query);
    int skip = cursor.find() ? Integer.parseInt(cursor.group(1)) : 0;
    ArrayNode example = (ArrayNode) example(method, path, 200);
    ObjectNode template = (ObjectNode) example.get(0);
    ArrayNode list = Json.mapper().createArrayNode();
    List<Webhooks.Delivery> all = new ArrayList<>(webhooks.deliveries());
    java.util.Collections.reverse(all);
    int listed = 0;
    for (Webhooks.Delivery d : all) {
      boolean ok = d.status() / 100 == 2;
      if ((failures && ok) || listed++ < skip) {
        continue;
      }
      if (list.size() == perPage) {
        String next =
            api()
                + "/app/hook/deliveries?"
                + (failures ? "status=failure&" : "")
                + "per_page="
                + perPage
                + "&cursor="
                + (skip + perPage);
        exchange.getResponseHeaders().add("Link", "<" + next + ">; rel=\"next\"");
        break;
      }
      ObjectNode item = template.deepCopy();
      item.put("id", d.attempt())
          .put("guid", d.id())
          .put("delivered_at", d.at().toString())
          .put("redelivery", d.redelivery())
          .put(
              "status",
              ok ? "OK" : d.status() == 0 ? "timed out" : "Invalid HTTP Response: " + d.status())
          .put("status_code", d.status())
          .put("event", d.event());
      if (d.action().isEmpty()) {
        item.putNull("action");
      } else {
        item.put("action", d.action());
      }
      list.add(item);
    }
    return new Answer(200, list);
  }

  /**
   * {@code POST /graphql} for the one field trainyard asks: {@code reviewDecision} of pull
   * requests, each under an alias ({@code pr12: pullRequest(number: 12) { reviewDecision }}) of
   * {@code repository(owner: $owner, name: $name)}. An installation token is needed, as on GitHub;
   * a repository the token does not reach is {@code null} with an error, as GitHub answers.
   */
  private Answer graphql(String authorization, JsonNode body) {
    Issued issued = authorization == null ? null : tokens.get(authorization.replace("token ", ""));
    if (issued == null
        || !clock.instant().isBefore(issued.expires())
        || !installations.containsKey(issued.installation())) {
      // expired, or revoked with its installation (one issued while it was being removed too)
      return new Answer(401, message("Bad credentials"));
    }
    String query = body == null ? "" : body.path("query").asString("");
    JsonNode variables = body == null ? null : body.path("variables");
    String owner = variables == null ? "" : variables.path("owner").asString("");
    String name = variables == null ? "" : variables.path("name").asString("");
    SimulatedRepository repo = repositories.get(folded(owner + "/" + name));
    ObjectNode answer = Json.mapper().createObjectNode();
    ObjectNode data = answer.putObject("data");
    if (repo == null
        || !installations
            .getOrDefault(issued.installation(), Set.of())
            .contains(folded(owner + "/" + name))) {
      data.putNull("repository");
      answer
          .putArray("errors")
          .addObject()
          .put("type", "NOT_FOUND")
          .put(
              "message",
              "Could not resolve to a Repository with the name '" + owner + "/" + name + "'.");
      return new Answer(200, answer);
    }
    ObjectNode found = data.putObject("repository");
    Matcher pulls = GRAPHQL_PULL.matcher(query);
    while (pulls.find()) {
      Optional<SimulatedRepository.PullRequest> pr = repo.pull(Long.parseLong(pulls.group(2)));
      if (pr.isEmpty()) {
        found.putNull(pulls.group(1));
        continue;
      }
      String decision = pr.get().reviewDecision();
      ObjectNode node = found.putObject(pulls.group(1));
      if (decision == null) {
        node.putNull("reviewDecision");
      } else {
        node.put("reviewDecision", decision);
      }
    }
    return new Answer(200, answer);
  }

  /**
   * GitHub's conditional requests: a GET answer carries an {@code ETag} of its body, and a request
   * naming it in {@code If-None-Match} is answered 304 without a body, where GitHub documents 304.
   */
  private Answer tagged(HttpExchange exchange, String path, Answer answer) {
    byte[] bytes = Json.mapper().writeValueAsBytes(answer.body());
    String etag;
    try {
      etag =
          "\""
              + java.util.HexFormat.of()
                  .formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes))
              + "\"";
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
    exchange.getResponseHeaders().add("ETag", etag);
    String ifNoneMatch = exchange.getRequestHeaders().getFirst("If-None-Match");
    return etag.equals(ifNoneMatch) && contract.documents("GET", path, 304)
        ? new Answer(304, null)
        : answer;
  }

  /** The repository names each token issued so far was limited to (empty: every repository). */
  public List<Set<String>> issuedScopes() {
    return List.copyOf(issuedScopes);
  }

  /** Every answer so far, as {@code METHOD path status}. */
  public List<String> answered() {
    return List.copyOf(answered);
  }

  /**
   * A token for {@code installation}, limited to the repositories {@code body} names, if any:
   * GitHub's 422 when one of them is not a repository of the installation under that name.
   */
  private Answer issueToken(String method, String path, long installation, JsonNode body) {
    if (!installations.containsKey(installation)) {
      return new Answer(404, message("Not Found"));
    }
    Set<Long> limited = null;
    Set<String> asked = new java.util.HashSet<>();
    if (body != null && body.has("repositories")) {
      Map<String, Long> ids = new java.util.HashMap<>();
      installations
          .get(installation)
          .forEach(
              full ->
                  Optional.ofNullable(repositories.get(full))
                      .ifPresent(r -> ids.put(full.substring(full.indexOf('/') + 1), r.id())));
      limited = new java.util.HashSet<>();
      for (JsonNode name : body.get("repositories")) {
        String folded = name.asString("").toLowerCase(java.util.Locale.ROOT);
        if (!ids.containsKey(folded)) {
          return new Answer(
              422,
              message(
                  "There is at least one repository that does not exist or is not accessible to"
                      + " the parent installation."));
        }
        limited.add(ids.get(folded));
        asked.add(folded);
      }
    }
    String token = "ghs_" + UUID.randomUUID().toString().replace("-", "");
    Instant expires = clock.instant().plus(tokenLifetime);
    this.tokens.put(token, new Issued(installation, expires, limited));
    issuedScopes.add(Set.copyOf(asked));
    ObjectNode answer = (ObjectNode) example(method, path, 201);
    answer.put("token", token);
    answer.put("expires_at", expires.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
    return new Answer(201, answer);
  }

  private Answer installationAnswer(String method, String path, String fullName) {
    return installations.entrySet().stream()
        .filter(e -> e.getValue().contains(folded(fullName)))
        .findFirst()
        .map(
            e -> {
              ObjectNode answer = (ObjectNode) example(method, path, 200);
              answer.put("id", e.getKey());
              answer.put("app_id", APP_ID);
              return new Answer(200, answer);
            })
        .orElseGet(() -> new Answer(404, message("Not Found")));
  }

  /** Checks an App JWT: RS256 by the App's key, issued by the App, not expired, not future. */
  private boolean validJwt(String authorization) {
    if (authorization == null || !authorization.startsWith("Bearer ")) {
      return false;
    }
    String[] parts = authorization.substring("Bearer ".length()).split("\\.");
    if (parts.length != 3) {
      return false;
    }
    try {
      Signature rs256 = Signature.getInstance("SHA256withRSA");
      rs256.initVerify(appKey.getPublic());
      rs256.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
      if (!rs256.verify(Base64.getUrlDecoder().decode(parts[2]))) {
        return false;
      }
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return false;
    }
    JsonNode header = Json.mapper().readTree(Base64.getUrlDecoder().decode(parts[0]));
    JsonNode claims = Json.mapper().readTree(Base64.getUrlDecoder().decode(parts[1]));
    long now = clock.instant().getEpochSecond();
    return header.path("alg").asString("").equals("RS256")
        && claims.path("iss").asString("").equals(Long.toString(APP_ID))
        && claims.path("iat").asLong() <= now
        && claims.path("exp").asLong() > now
        && claims.path("exp").asLong() - claims.path("iat").asLong() <= 600;
  }

  void answer(HttpExchange exchange, String method, String path, int status, JsonNode body)
      throws IOException {
    problems.addAll(contract.checkResponse(method, path, status, body));
    byte[] bytes = body == null ? new byte[0] : Json.mapper().writeValueAsBytes(body);
    exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
  }

  JsonNode example(String method, String path, int status) {
    return contract
        .example(method, path, status)
        .orElseThrow(() -> new IllegalStateException("no example for " + method + " " + path));
  }

  static JsonNode message(String text) {
    return Json.mapper()
        .createObjectNode()
        .put("message", text)
        .put("documentation_url", "https://docs.github.com/rest");
  }

  private static void pause(Duration delay) {
    try {
      Thread.sleep(delay.toMillis()); // GitHub itself is slow here: the test's premise
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static KeyPair rsa() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    webhooks.close();
    repositories.values().forEach(r -> r.git().close());
    try {
      FileSystemUtils.deleteRecursively(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("could not remove " + dir, e);
    }
  }
}
