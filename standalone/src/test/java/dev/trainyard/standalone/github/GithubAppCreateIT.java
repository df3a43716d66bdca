package dev.trainyard.standalone.github;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Prerequisites;
import dev.trainyard.standalone.support.StandaloneProcess;
import dev.trainyard.worker.scm.github.GithubSimulator;
import dev.trainyard.worker.scm.github.OpenApiContract;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;

/**
 * {@code github-app create} against the GitHub simulator, with the test as the person's browser:
 * the command's page posts the App's manifest to GitHub, GitHub sends the browser back with a code,
 * and the command turns the code into the App and writes a Secret. The Secret holds what GitHub
 * handed out, owner-only, and has every key the chart's render reads from it when {@code
 * github.existingSecret} and {@code sso.existingSecret} name it; a forged redirect is refused; the
 * code is spent.
 */
class GithubAppCreateIT {
  private static final Pattern FORM =
      Pattern.compile(
          "action=\"([^\"]+)\"><input type=\"hidden\" name=\"manifest\" value=\"([^\"]+)\"");
  private static final Pattern SECRET_KEY =
      Pattern.compile(
          "secretKeyRef:\\s*\\n\\s*name: \"?trainyard-github\"?\\s*\\n\\s*key: \"?([a-z-]+)\"?");

  @TempDir Path folder;
  private final HttpClient browser = HttpClient.newHttpClient(); // redirects not followed

  @Test
  @SuppressWarnings("unchecked")
  void theManifestFlowWritesTheSecretTheChartReads() throws Exception {
    Path helm = helm();
    try (GithubSimulator github =
        new GithubSimulator(OpenApiContract.github(), InstantSource.system())) {
      int port = StandaloneProcess.freePort();
      Path file = folder.resolve("trainyard-github.yaml");
      ByteArrayOutputStream printed = new ByteArrayOutputStream();
      PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
      String gh = github.api().toString();
      CompletableFuture<Integer> status =
          CompletableFuture.supplyAsync(
              () ->
                  GithubAppCommand.run(
                      List.of(
                          "create",
                          "--url",
                          "https://trainyard.example.com/",
                          "--org",
                          "acme",
                          "--github",
                          gh,
                          "--api",
                          gh,
                          "--namespace",
                          "trainyard",
                          "--out",
                          file.toString(),
                          "--port",
                          Integer.toString(port),
                          "--timeout-minutes",
                          "2"),
                      out,
                      out));
      String local = "http://127.0.0.1:" + port;

      String page =
          Awaitility.await()
              .ignoreExceptions()
              .until(() -> get(local + "/").body(), b -> b.contains("<form"));
      Matcher form = FORM.matcher(page);
      assertThat(form.find()).as(page).isTrue();
      String action = unescape(form.group(1));
      JsonNode manifest = dev.trainyard.common.json.Json.mapper().readTree(unescape(form.group(2)));
      assertThat(action).startsWith(gh + "/organizations/acme/settings/apps/new?state=");
      assertThat(manifest.path("hook_attributes").path("url").asString())
          .isEqualTo("https://trainyard.example.com/v1/scm/github/webhook");
      assertThat(manifest.path("redirect_url").asString()).isEqualTo(local + "/created");
      assertThat(manifest.path("callback_urls").get(0).asString())
          .isEqualTo("https://trainyard.example.com/ui/sign-in/github/callback");
      assertThat(manifest.path("default_events").toString()).contains("\"repository\"");

      // a redirect this command did not ask for is refused, and it keeps waiting
      assertThat(get(local + "/created?code=abc&state=forged").statusCode()).isEqualTo(400);
      assertThat(status).isNotDone();

      HttpResponse<String> posted =
          browser.send(
              HttpRequest.newBuilder(URI.create(action))
                  .header("Content-Type", "application/x-www-form-urlencoded")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "manifest="
                              + URLEncoder.encode(manifest.toString(), StandardCharsets.UTF_8)))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(posted.statusCode()).as(posted.body()).isEqualTo(302);
      String back = posted.headers().firstValue("Location").orElseThrow();
      assertThat(back).startsWith(local + "/created?code=");
      HttpResponse<String> done = get(back);
      assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
      assertThat(status.get(30, TimeUnit.SECONDS)).as(printed.toString()).isZero();

      String output = printed.toString(StandardCharsets.UTF_8);
      Matcher id = Pattern.compile("\\(id (\\d+)\\)").matcher(output);
      assertThat(id.find()).as(output).isTrue();
      GithubSimulator.CreatedApp app = github.createdApp(Long.parseLong(id.group(1))).orElseThrow();
      assertThat(output)
          .contains(
              "--set github.appId=" + id.group(1), "--set github.existingSecret=trainyard-github")
          .contains("/installations/new");
      assertThat(Files.getPosixFilePermissions(file))
          .isEqualTo(PosixFilePermissions.fromString("rw-------"));
      Map<String, Object> secret = new Yaml().load(Files.readString(file));
      assertThat(secret).containsEntry("kind", "Secret");
      assertThat((Map<String, Object>) secret.get("metadata"))
          .containsEntry("name", "trainyard-github")
          .containsEntry("namespace", "trainyard");
      Map<String, String> data = (Map<String, String>) secret.get("stringData");
      assertThat(data)
          .containsEntry("github-private-key", app.privateKeyPem())
          .containsEntry("github-webhook-secret", app.webhookSecret())
          .containsEntry("github-client-secret", app.clientSecret());

      // the code was spent: GitHub answers it once
      String code = back.replaceAll(".*code=([^&]+).*", "$1");
      HttpResponse<String> again =
          browser.send(
              HttpRequest.newBuilder(URI.create(gh + "/app-manifests/" + code + "/conversions"))
                  .POST(HttpRequest.BodyPublishers.noBody())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(again.statusCode()).isEqualTo(404);
      assertThat(github.problems()).isEmpty();

      assertThat(keysTheChartReads(helm, id.group(1), app.clientId()))
          .containsExactlyInAnyOrder(
              "github-private-key", "github-webhook-secret", "github-client-secret")
          .allMatch(data::containsKey);
    }
  }

  /** Every key of the Secret {@code trainyard-github} the chart's render reads. */
  private Set<String> keysTheChartReads(Path helm, String appId, String clientId)
      throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(
                helm.toString(),
                "template",
                "trainyard",
                "helm/trainyard",
                "--set",
                "externalKafka.bootstrapServers=kafka:9092",
                "--set",
                "externalMongodb.uri=mongodb://mongodb:27017/trainyard",
                "--set",
                "secrets.adminToken=admin",
                "--set",
                "secrets.webhookKey=3q2+7wABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGho=",
                "--set",
                "secrets.flakyTokenKey=0123456789abcdef0123456789abcdef",
                "--set",
                "secrets.flakyInternalKey=0123456789abcdef0123456789abcdef",
                "--set",
                "github.enabled=true",
                "--set",
                "github.appId=" + appId,
                "--set",
                "github.existingSecret=trainyard-github",
                "--set",
                "sso.github.clientId=" + clientId,
                "--set",
                "sso.existingSecret=trainyard-github"));
    Process render =
        new ProcessBuilder(command)
            .directory(Path.of("..").toFile())
            .redirectErrorStream(true)
            .start();
    String manifests = new String(render.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(render.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(render.exitValue()).as(manifests).isZero();
    Set<String> keys = new TreeSet<>();
    Matcher ref = SECRET_KEY.matcher(manifests);
    while (ref.find()) {
      keys.add(ref.group(1));
    }
    return keys;
  }

  private static Path helm() {
    Path installed = Path.of("..", ".ci/.tools/bin/helm").toAbsolutePath();
    boolean found = Files.isExecutable(installed) || Prerequisites.onPath("helm");
    Prerequisites.require(
        found,
        "trainyard.cluster",
        "no helm to render the chart with (.ci/helm-check installs it)");
    return Files.isExecutable(installed) ? installed : Path.of("helm");
  }

  private HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return browser.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String unescape(String html) {
    return html.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
  }
}
