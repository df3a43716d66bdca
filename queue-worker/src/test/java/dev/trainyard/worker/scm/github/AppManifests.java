package dev.trainyard.worker.scm.github;

import com.sun.net.httpserver.HttpExchange;
import dev.trainyard.common.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * GitHub's "registering a GitHub App from a manifest" flow: a person's browser POSTs a form with a
 * {@code manifest} field (and a {@code state} in the query) to {@code /settings/apps/new} or {@code
 * /organizations/<org>/settings/apps/new}; GitHub creates the App once they confirm, and sends the
 * browser to the manifest's {@code redirect_url} with a {@code code} (valid one hour, once) and the
 * {@code state}. {@code POST /app-manifests/{code}/conversions} (no authentication) then answers
 * the App: its id, key (PKCS#1 PEM), webhook secret and OAuth client. A manifest without {@code
 * url}, {@code hook_attributes.url} or {@code redirect_url}, or not JSON, is refused on the page
 * (422); an App name already taken is too, as GitHub asks for another.
 */
final class AppManifests {
  static final Pattern CONVERSIONS = Pattern.compile("/app-manifests/([A-Za-z0-9]+)/conversions");
  private static final Pattern NEW_APP =
      Pattern.compile("/(organizations/[A-Za-z0-9-]+/)?settings/apps/new");
  private static final Duration CODE_LIFETIME = Duration.ofHours(1);

  private final GithubSimulator github;
  private final InstantSource clock;
  private final Map<String, Pending> codes = new ConcurrentHashMap<>();
  private final Map<Long, Created> created = new ConcurrentHashMap<>();
  private final Set<String> names = ConcurrentHashMap.newKeySet();
  private final AtomicLong ids = new AtomicLong(900_000);

  /** An App created from a manifest: what GitHub keeps of it. */
  record Created(
      long id,
      String slug,
      String owner,
      JsonNode manifest,
      KeyPair key,
      String webhookSecret,
      String clientId,
      String clientSecret) {}

  private record Pending(long appId, Instant expires) {}

  AppManifests(GithubSimulator github, InstantSource clock) {
    this.github = github;
    this.clock = clock;
  }

  static boolean isWeb(String rawPath) {
    return NEW_APP.matcher(rawPath).matches();
  }

  /** The Apps created from manifests so far, by id. */
  Map<Long, Created> created() {
    return Map.copyOf(created);
  }

  /** The form POST of the person's browser, confirmed: a redirect with a code, or a refusal. */
  void web(HttpExchange exchange, String method, byte[] body) throws IOException {
    if (!method.equals("POST")) {
      page(exchange, 404, "Not Found");
      return;
    }
    Map<String, String> form = PeopleSignIn.form(new String(body, StandardCharsets.UTF_8));
    Map<String, String> query = PeopleSignIn.form(exchange.getRequestURI().getRawQuery());
    JsonNode manifest;
    try {
      manifest = Json.mapper().readTree(form.getOrDefault("manifest", ""));
    } catch (RuntimeException e) {
      manifest = null;
    }
    if (manifest == null || !manifest.isObject()) {
      page(exchange, 422, "Invalid GitHub App configuration: the manifest is not JSON");
      return;
    }
    for (String field : new String[] {"url", "redirect_url"}) {
      if (!manifest.path(field).isString() || manifest.path(field).asString().isBlank()) {
        page(exchange, 422, "Invalid GitHub App configuration: " + field + " is missing");
        return;
      }
    }
    if (!manifest.path("hook_attributes").path("url").isString()) {
      page(exchange, 422, "Invalid GitHub App configuration: hook_attributes.url is missing");
      return;
    }
    String name = manifest.path("name").asString("");
    if (name.isBlank() || !names.add(name.toLowerCase(java.util.Locale.ROOT))) {
      page(exchange, 422, "Name is already taken or empty: choose another name for the App");
      return;
    }
    String path = exchange.getRequestURI().getPath();
    String owner =
        path.startsWith("/organizations/") ? path.split("/")[2] : "octocat"; // the person
    long id = ids.incrementAndGet();
    String slug = name.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
    created.put(
        id,
        new Created(
            id,
            slug,
            owner,
            manifest,
            GithubSimulator.rsa(),
            UUID.randomUUID().toString(),
            "Iv1." + UUID.randomUUID().toString().replace("-", "").substring(0, 16),
            UUID.randomUUID().toString().replace("-", "")));
    String code = UUID.randomUUID().toString().replace("-", "");
    codes.put(code, new Pending(id, clock.instant().plus(CODE_LIFETIME)));
    String state = query.get("state");
    String location =
        manifest.path("redirect_url").asString()
            + "?code="
            + code
            + (state == null ? "" : "&state=" + URLEncoder.encode(state, StandardCharsets.UTF_8));
    exchange.getResponseHeaders().add("Location", URI.create(location).toString());
    exchange.sendResponseHeaders(302, -1);
  }

  /** {@code POST /app-manifests/{code}/conversions}: the App, once per code, within the hour. */
  GithubSimulator.Answer convert(String code, String method, String path) {
    Pending pending = codes.remove(code);
    if (pending == null || !clock.instant().isBefore(pending.expires())) {
      return new GithubSimulator.Answer(404, GithubSimulator.message("Not Found"));
    }
    Created app = created.get(pending.appId());
    JsonNode manifest = app.manifest();
    ObjectNode answer = (ObjectNode) github.example("GET", "/apps/" + app.slug(), 200);
    answer
        .put("id", app.id())
        .put("slug", app.slug())
        .put("name", manifest.path("name").asString())
        .put("external_url", manifest.path("url").asString())
        .put("html_url", github.api() + "/apps/" + app.slug())
        .put("client_id", app.clientId())
        .put("client_secret", app.clientSecret())
        .put("webhook_secret", app.webhookSecret())
        .put("pem", GithubSimulator.pkcs1Pem(app.key()));
    ((ObjectNode) answer.path("owner")).put("login", app.owner());
    if (manifest.has("default_permissions")) {
      answer.set("permissions", manifest.get("default_permissions"));
    }
    if (manifest.has("default_events")) {
      answer.set("events", manifest.get("default_events"));
    }
    return new GithubSimulator.Answer(201, answer);
  }

  private static void page(HttpExchange exchange, int status, String text) throws IOException {
    byte[] bytes =
        ("<!DOCTYPE html><title>GitHub</title><p>" + text).getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }
}
