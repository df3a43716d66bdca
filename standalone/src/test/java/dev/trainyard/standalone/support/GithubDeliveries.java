package dev.trainyard.standalone.support;

import dev.trainyard.common.json.Json;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * GitHub as a sender of webhook deliveries: the published example payloads of every event type (npm
 * {@code @octokit/webhooks-examples}, installed by {@code .ci/github-fixtures}), signed the way
 * GitHub signs them ({@code X-Hub-Signature-256}, HMAC-SHA256 of the body with the App's webhook
 * secret) and posted to {@code /v1/scm/github/webhook}. Without the package the tests that need it
 * are skipped, unless {@code -Dtrainyard.github-fixtures=required} (CI) makes that a failure.
 */
public final class GithubDeliveries {
  public static final String PATH = "/v1/scm/github/webhook";
  private static final Path EXAMPLES =
      Path.of(
          "..",
          ".ci/.tools/github/node_modules/@octokit/webhooks-examples/api.github.com/index.json");

  private final Api api;
  private final String secret;

  /** One published example: its event type (the {@code X-GitHub-Event} header) and payload. */
  public record Example(String event, ObjectNode payload) {
    public String action() {
      return payload.path("action").asString("");
    }

    @Override
    public String toString() {
      return event + (action().isEmpty() ? "" : "." + action());
    }
  }

  public GithubDeliveries(Api api, String secret) {
    this.api = api.withToken(null);
    this.secret = secret;
  }

  /** Every published example for api.github.com, in the package's order. */
  public static List<Example> examples() throws IOException {
    Prerequisites.require(
        Files.exists(EXAMPLES),
        "trainyard.github-fixtures",
        "GitHub's webhook examples are not installed (.ci/github-fixtures)");
    List<Example> out = new ArrayList<>();
    for (JsonNode type : Json.mapper().readTree(EXAMPLES.toFile())) {
      for (JsonNode example : type.get("examples")) {
        out.add(new Example(type.get("name").asString(), (ObjectNode) example));
      }
    }
    return out;
  }

  /** The first example of {@code event} with {@code action} whose payload names an installation. */
  public static Example example(String event, String action) throws IOException {
    return examples().stream()
        .filter(e -> e.event().equals(event) && e.action().equals(action))
        .filter(e -> e.payload().has("installation"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + event + "." + action + " example"));
  }

  /** Posts {@code body} as delivery {@code delivery} of {@code event}, signed. */
  public Api.Response deliver(String event, String delivery, byte[] body) {
    return post(event, delivery, body, sign(body));
  }

  /** Posts the example as a new delivery, signed. */
  public Api.Response deliver(Example example) {
    return deliver(example.event(), UUID.randomUUID().toString(), bytes(example.payload()));
  }

  /** Posts with whatever signature header is given (null: none). */
  public Api.Response post(String event, String delivery, byte[] body, String signature) {
    HttpRequest.Builder request =
        api.request(PATH)
            .header("X-GitHub-Event", event)
            .header("X-GitHub-Delivery", delivery)
            .header("User-Agent", "GitHub-Hookshot/test")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (signature != null) {
      request.header("X-Hub-Signature-256", signature);
    }
    return api.send(request);
  }

  public String sign(byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  public static byte[] bytes(JsonNode payload) {
    return Json.mapper().writeValueAsBytes(payload);
  }
}
