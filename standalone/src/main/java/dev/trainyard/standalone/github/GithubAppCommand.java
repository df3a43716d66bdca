package dev.trainyard.standalone.github;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.trainyard.common.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code java -jar trainyard-standalone.jar github-app create --url <public url>}: registers
 * trainyard's GitHub App the way GitHub offers it, from a manifest. It serves a page on loopback
 * whose form posts the manifest to GitHub ({@code /settings/apps/new}, or an organization's); once
 * the person confirms, GitHub sends their browser back to this command with a code, which {@code
 * POST /app-manifests/{code}/conversions} turns into the App's id, private key, webhook secret and
 * OAuth client. It writes them as a Kubernetes Secret with the keys the chart reads ({@code
 * github-private-key}, {@code github-webhook-secret}, and {@code github-client-secret} for signing
 * in with GitHub), readable by its owner only, and prints the next steps.
 */
public final class GithubAppCommand {
  private static final String USAGE =
      "usage: java -jar trainyard-standalone.jar github-app create --url <public https URL of the"
          + " gateway> [--org <GitHub organization>] [--name <App name>] [--github <web URL>]"
          + " [--api <REST API URL>] [--secret-name <name>] [--namespace <namespace>] [--out <file>]"
          + " [--port <loopback port>] [--timeout-minutes <n>]";
  private static final List<String> OPTIONS =
      List.of(
          "url",
          "org",
          "name",
          "github",
          "api",
          "secret-name",
          "namespace",
          "out",
          "port",
          "timeout-minutes");

  private final Map<String, String> options;
  private final PrintStream out;
  private final String state = newState();
  private final CompletableFuture<JsonNode> created = new CompletableFuture<>();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private GithubAppCommand(Map<String, String> options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  public static void main(String[] args) {
    System.exit(run(List.of(args), System.out, System.err));
  }

  /** Runs the command; returns its exit status (0 created, 1 failed, 2 a bad command line). */
  public static int run(List<String> args, PrintStream out, PrintStream err) {
    Map<String, String> options;
    try {
      options = parse(args);
    } catch (IllegalArgumentException e) {
      err.println("github-app: " + e.getMessage());
      err.println(USAGE);
      return 2;
    }
    try {
      return new GithubAppCommand(options, out).create();
    } catch (IOException | RuntimeException e) {
      err.println("github-app: " + e.getMessage());
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    }
  }

  static Map<String, String> parse(List<String> args) {
    if (args.isEmpty() || !args.get(0).equals("create")) {
      throw new IllegalArgumentException("the only command is create");
    }
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 1; i < args.size(); i += 2) {
      String option = args.get(i);
      if (!option.startsWith("--") || !OPTIONS.contains(option.substring(2))) {
        throw new IllegalArgumentException("unknown option " + option);
      }
      if (i + 1 >= args.size()) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      options.put(option.substring(2), args.get(i + 1));
    }
    URI url = URI.create(options.getOrDefault("url", ""));
    if (!"https".equals(url.getScheme())
        || url.getHost() == null
        || url.getRawQuery() != null
        || url.getRawFragment() != null
        || url.getRawUserInfo() != null) {
      throw new IllegalArgumentException(
          "--url must be the gateway's public https address (GitHub sends its webhooks there),"
              + " without user, query or fragment, e.g. https://trainyard.example.com");
    }
    String base = url.toString().replaceAll("/+$", "");
    options.put("url", base);
    String github = options.getOrDefault("github", "https://github.com").replaceAll("/+$", "");
    options.put("github", github);
    options.putIfAbsent(
        "api", github.equals("https://github.com") ? "https://api.github.com" : github + "/api/v3");
    options.putIfAbsent("name", "trainyard");
    options.putIfAbsent("secret-name", "trainyard-github");
    options.putIfAbsent("out", options.get("secret-name") + ".yaml");
    if (!options.get("secret-name").matches("[a-z0-9]([-a-z0-9]{0,251}[a-z0-9])?")) {
      throw new IllegalArgumentException("--secret-name must be a Kubernetes name");
    }
    for (String number : List.of("port", "timeout-minutes")) {
      if (options.containsKey(number) && !options.get(number).matches("\\d{1,5}")) {
        throw new IllegalArgumentException("--" + number + " must be a number");
      }
    }
    return options;
  }

  private int create() throws IOException, InterruptedException {
    int port = Integer.parseInt(options.getOrDefault("port", "0"));
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    server.createContext("/", this::serve);
    server.start();
    try {
      String local = "http://127.0.0.1:" + server.getAddress().getPort();
      out.printf(
          "Open %s/ in a browser signed in to GitHub%s and confirm the App \"%s\".%n",
          local,
          options.containsKey("org") ? " as an owner of " + options.get("org") : "",
          options.get("name"));
      JsonNode app;
      try {
        app =
            created.get(
                Long.parseLong(options.getOrDefault("timeout-minutes", "10")), TimeUnit.MINUTES);
      } catch (TimeoutException e) {
        throw new IllegalStateException("no App was created in time: run the command again");
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
      }
      Path secret = writeSecret(app);
      printNextSteps(app, secret);
      return 0;
    } finally {
      server.stop(1);
    }
  }

  /** The form page, and GitHub's redirect back with the code. */
  private void serve(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      if (!exchange.getRequestMethod().equals("GET")) {
        page(exchange, 405, "<p>Only GET here.");
      } else if (path.equals("/")) {
        page(exchange, 200, form(exchange));
      } else if (path.equals("/created")) {
        redirected(exchange);
      } else {
        page(exchange, 404, "<p>Not found.");
      }
    }
  }

  private String form(HttpExchange exchange) {
    String local = "http://127.0.0.1:" + exchange.getLocalAddress().getPort();
    String action =
        options.get("github")
            + (options.containsKey("org")
                ? "/organizations/" + encode(options.get("org")) + "/settings/apps/new"
                : "/settings/apps/new")
            + "?state="
            + state;
    return "<h1>Create trainyard's GitHub App</h1>"
        + "<form id=\"manifest\" method=\"post\" action=\""
        + html(action)
        + "\"><input type=\"hidden\" name=\"manifest\" value=\""
        + html(manifest(local + "/created").toString())
        + "\"><button type=\"submit\">Create the App on GitHub</button></form>"
        + "<script>document.getElementById('manifest').submit()</script>";
  }

  /** The App's manifest: the packaged permissions and events, with this install's addresses. */
  ObjectNode manifest(String redirect) {
    ObjectNode manifest;
    try (InputStream in = GithubAppCommand.class.getResourceAsStream("/github-app-manifest.json")) {
      manifest = (ObjectNode) Json.mapper().readTree(in);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    String url = options.get("url");
    manifest.put("name", options.get("name")).put("url", url).put("redirect_url", redirect);
    ((ObjectNode) manifest.get("hook_attributes")).put("url", url + "/v1/scm/github/webhook");
    manifest.putArray("callback_urls").add(url + "/ui/sign-in/github/callback");
    return manifest;
  }

  private void redirected(HttpExchange exchange) throws IOException {
    Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
    if (!state.equals(query.get("state")) || query.getOrDefault("code", "").isBlank()) {
      page(exchange, 400, "<p>This is not GitHub's answer to the App this command asked for.");
      return;
    }
    if (created.isDone()) {
      page(exchange, 409, "<p>The App was created already; see the command's output.");
      return;
    }
    try {
      JsonNode app = convert(query.get("code"));
      created.complete(app);
      page(
          exchange,
          200,
          "<h1>Created " + html(app.path("name").asString()) + "</h1><p>Back to the terminal.");
    } catch (IOException | RuntimeException e) {
      created.completeExceptionally(e);
      page(exchange, 502, "<p>" + html(e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      created.completeExceptionally(e);
    }
  }

  /** {@code POST /app-manifests/{code}/conversions}: the App, its key and secrets, once. */
  private JsonNode convert(String code) throws IOException, InterruptedException {
    HttpResponse<String> answer =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(
                        options.get("api") + "/app-manifests/" + encode(code) + "/conversions"))
                .timeout(Duration.ofSeconds(30))
                .header("Accept", "application/vnd.github+json")
                .header("X-GitHub-Api-Version", "2022-11-28")
                .POST(HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() != 201) {
      throw new IllegalStateException(
          "GitHub answered "
              + answer.statusCode()
              + " to the conversion of the App's code (it is valid once, for an hour): "
              + answer.body());
    }
    JsonNode app = Json.mapper().readTree(answer.body());
    for (String field : List.of("id", "slug", "pem", "webhook_secret", "client_id")) {
      if (app.path(field).isMissingNode() || app.path(field).isNull()) {
        throw new IllegalStateException("GitHub's answer has no " + field);
      }
    }
    return app;
  }

  private Path writeSecret(JsonNode app) throws IOException {
    String name = options.get("secret-name");
    List<String> lines = new ArrayList<>();
    lines.add(
        "# The GitHub App \""
            + app.path("name").asString()
            + "\" (id "
            + app.path("id").asLong()
            + "), created from its manifest by trainyard's github-app create.");
    lines.add("# Secret: apply it (kubectl apply -f), keep it out of version control.");
    lines.add("apiVersion: v1");
    lines.add("kind: Secret");
    lines.add("metadata:");
    lines.add("  name: " + name);
    if (options.containsKey("namespace")) {
      lines.add("  namespace: " + Json.mapper().writeValueAsString(options.get("namespace")));
    }
    lines.add("type: Opaque");
    lines.add("stringData:");
    // JSON strings are YAML's double-quoted scalars: the PEM's line breaks stay \n escapes
    lines.add("  github-private-key: " + quoted(app, "pem"));
    lines.add("  github-webhook-secret: " + quoted(app, "webhook_secret"));
    lines.add("  github-client-secret: " + quoted(app, "client_secret"));
    Path file = Path.of(options.get("out"));
    Files.deleteIfExists(file);
    try {
      Files.createFile(
          file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (UnsupportedOperationException notPosix) {
      Files.createFile(file);
    }
    Files.write(file, lines, StandardCharsets.UTF_8);
    return file;
  }

  private void printNextSteps(JsonNode app, Path secret) {
    String name = options.get("secret-name");
    String htmlUrl = app.path("html_url").asString();
    out.printf(
        "%nCreated the GitHub App \"%s\" (id %d): %s%n"
            + "Its key, webhook secret and client secret are in %s (owner-only). Next:%n"
            + "  1. kubectl apply -f %s%s%n"
            + "  2. helm upgrade <release> <chart> -n <namespace> --reset-then-reuse-values"
            + " --set github.enabled=true --set github.appId=%d --set github.existingSecret=%s%s"
            + "%n     (and, to sign in to the dashboard with GitHub: --set sso.github.clientId=%s"
            + " --set sso.existingSecret=%s)%n"
            + "  3. install the App on your repositories: %s/installations/new%n"
            + "  4. bind the installation to your trainyard organization"
            + " (POST /admin/v1/bindGithubInstallation), then createQueue for each repository%n",
        app.path("name").asString(),
        app.path("id").asLong(),
        htmlUrl,
        secret,
        secret,
        options.containsKey("namespace") ? "" : " -n <namespace>",
        app.path("id").asLong(),
        name,
        options.get("api").equals("https://api.github.com")
            ? ""
            : " --set github.apiUrl="
                + options.get("api")
                + " --set github.host="
                + URI.create(options.get("github")).getHost(),
        app.path("client_id").asString(),
        name,
        htmlUrl);
  }

  private static String newState() {
    byte[] bytes = new byte[16];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  private static String quoted(JsonNode app, String field) {
    return Json.mapper().writeValueAsString(app.path(field).asString(""));
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> values = new LinkedHashMap<>();
    if (raw != null) {
      for (String pair : raw.split("&")) {
        int eq = pair.indexOf('=');
        if (eq > 0) {
          values.put(
              URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
              URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    }
    return values;
  }

  private static String encode(String value) {
    return java.net.URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private static String html(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;")
        .replace("'", "&#39;");
  }

  private static void page(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes =
        ("<!DOCTYPE html><html lang=\"en\"><meta charset=\"utf-8\"><title>trainyard: GitHub App"
                + "</title>"
                + body)
            .getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
    exchange.getResponseHeaders().add("Cache-Control", "no-store");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }
}
