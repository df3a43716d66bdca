package dev.trainyard.gateway.scm.github;

import dev.trainyard.common.json.Json;
import dev.trainyard.gateway.config.GatewayProperties;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.HeldBodies;
import dev.trainyard.gateway.http.JsonResponses;
import java.time.Instant;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /v1/scm/github/webhook}: GitHub's deliveries for the App, without an API token. The
 * {@code X-Hub-Signature-256} must sign the body with {@code TRAINYARD_GITHUB_WEBHOOK_SECRET}, or
 * during a rotation with {@code TRAINYARD_GITHUB_WEBHOOK_PREVIOUS_SECRET} (else 401); a body that
 * is no JSON object is a 400. A verified delivery is stored in the {@link GithubInbox} and answered
 * 200 at once: GitHub cuts a delivery off after 10 seconds and never retries it, so nothing that
 * may wait (a rate limit, a slow store) happens before the answer. The inbox applies it right
 * after, and again until it is applied.
 *
 * <p>Anyone on the internet can reach this route, so its body limit is its own and small ({@link
 * #MAX_DELIVERY_BYTES}: GitHub's payloads are rarely past a few hundred KiB), a declared length
 * past it is refused before anything is read, and the signature is computed as the body streams.
 */
@Component
public class GithubWebhookHandler {
  private static final org.slf4j.Logger log =
      org.slf4j.LoggerFactory.getLogger(GithubWebhookHandler.class);

  /** The largest delivery taken: 5 MiB. */
  static final long MAX_DELIVERY_BYTES = 5L * 1024 * 1024;

  /**
   * Memory deliveries being read share: their own, so anonymous senders cannot take the budget of
   * the API's held bodies ({@link HeldBodies#BUDGET}).
   */
  static final long DELIVERIES_BUDGET = 64L * 1024 * 1024;

  private static final Pattern SIGNATURE = Pattern.compile("sha256=[0-9a-f]{64}");

  private static final int MAX_HEADER = 255;
  private final GatewayProperties.Github github;
  private final GithubInbox inbox;
  private final HeldBodies bodies;

  public GithubWebhookHandler(GatewayProperties props, GithubInbox inbox) {
    this.github = props.github();
    this.inbox = inbox;
    this.bodies = new HeldBodies(DELIVERIES_BUDGET);
  }

  public Mono<ServerResponse> receive(ServerRequest request) {
    if (github.webhookSecret() == null) {
      return Mono.error(
          ApiException.unavailable(
              "the GitHub App is not configured here: set TRAINYARD_GITHUB_WEBHOOK_SECRET"));
    }
    if (request.headers().contentLength().orElse(-1) > MAX_DELIVERY_BYTES) {
      return Mono.error(HeldBodies.tooLarge(MAX_DELIVERY_BYTES));
    }
    // what can be refused without the body is, before a byte of it is read
    String signature = request.headers().firstHeader("X-Hub-Signature-256");
    if (signature == null || !SIGNATURE.matcher(signature).matches()) {
      return Mono.error(unsigned());
    }
    String event = header(request, "X-GitHub-Event");
    String delivery = header(request, "X-GitHub-Delivery");
    Mac mac = GithubSignature.mac(github.webhookSecret());
    String before = github.previousSecretAt(Instant.now());
    Mac previous = before == null ? null : GithubSignature.mac(before);
    return bodies
        .hold(
            request.bodyToFlux(DataBuffer.class),
            MAX_DELIVERY_BYTES,
            chunk -> {
              mac.update(chunk);
              if (previous != null) {
                previous.update(chunk);
              }
            },
            body -> {
              if (!GithubSignature.verifies(mac, signature)) {
                if (previous == null || !GithubSignature.verifies(previous, signature)) {
                  return Mono.error(unsigned());
                }
                log.info(
                    "GitHub delivery {} is signed with the previous webhook secret; remove"
                        + " TRAINYARD_GITHUB_WEBHOOK_PREVIOUS_SECRET once none is",
                    delivery);
              }
              // a body that is no JSON object is refused now, not retried later
              return inbox.store(delivery, event, body, payload(body));
            })
        .then(JsonResponses.empty());
  }

  private static ApiException unsigned() {
    return ApiException.unauthorized(
        "X-Hub-Signature-256 is missing or does not sign this body with the webhook secret");
  }

  private static String header(ServerRequest request, String name) {
    String value = request.headers().firstHeader(name);
    if (value == null || value.isBlank() || value.length() > MAX_HEADER) {
      throw ApiException.badRequest(name + " is required: at most " + MAX_HEADER + " characters");
    }
    return value;
  }

  static JsonNode payload(byte[] body) {
    try {
      JsonNode node = Json.mapper().readTree(body);
      if (node == null || !node.isObject()) {
        throw ApiException.badRequest("the delivery body must be a JSON object");
      }
      return node;
    } catch (JacksonException e) {
      throw ApiException.badRequest("the delivery body is not JSON: " + e.getOriginalMessage());
    }
  }
}
