package dev.trainyard.standalone.webhooks;

import static dev.trainyard.standalone.support.Api.prBody;
import static dev.trainyard.standalone.support.QueueSteps.create;
import static dev.trainyard.standalone.support.QueueSteps.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.WebhookReceiver;
import dev.trainyard.webhooks.delivery.SignatureVerifier;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Webhooks end to end: a real HTTP receiver subscribed through the API gets the events of a
 * merge-queue flow, signed; failures are retried with the same id; a stopped dispatcher loses
 * nothing; a slow endpoint does not hold up a healthy one.
 */
class WebhooksIT extends OwnStack {
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private Api api;
  private WebhookReceiver receiver;

  @BeforeEach
  void receiver() throws Exception {
    api = stack.api();
    receiver = new WebhookReceiver();
  }

  @AfterEach
  void closeReceiver() {
    receiver.close();
  }

  @Test
  void theEventsOfAFlowArriveSignedAndAsApiMdDescribesThem() throws Exception {
    String secret = subscribe(receiver.url(), "[\"pull_request.*\"]");
    String repo = Api.uniqueRepo();
    create(api, repo, 1);
    submit(api, repo, 7);
    assertThat(api.post("/v1/cancelPullRequest", prBody(repo, 7)).status()).isEqualTo(200);

    List<WebhookReceiver.Received> got = awaitDelivered(repo, 2);

    SignatureVerifier verifier = new SignatureVerifier(secret);
    for (WebhookReceiver.Received r : got) {
      assertThat(r.header("content-type")).isEqualTo("application/json");
      assertThat(r.header("webhook-id")).startsWith("msg_");
      assertThat(r.header("svix-id")).isEqualTo(r.header("webhook-id"));
      assertThat(r.header("svix-signature")).isEqualTo(r.header("webhook-signature"));
      assertThat(
              verifier.verify(
                  r.header("webhook-id"),
                  r.header("webhook-timestamp"),
                  r.header("webhook-signature"),
                  r.body(),
                  Instant.now()))
          .as("signature of %s", r.body())
          .isTrue();
    }
    JsonNode submitted = event(got, "pull_request.submitted");
    assertThat(fieldNames(submitted))
        .containsExactlyInAnyOrder(
            "type",
            "action",
            "status",
            "author",
            "http_details_url",
            "pr_number",
            "repository",
            "target_branch",
            "timestamp",
            "submitted_reason");
    assertThat(submitted.get("action").asString()).isEqualTo("submitted");
    assertThat(submitted.get("status").asString()).isEqualTo("not_ready");
    assertThat(submitted.get("pr_number").asLong()).isEqualTo(7);
    assertThat(submitted.get("repository").get("owner").asString()).isEqualTo("acme");
    assertThat(submitted.get("target_branch").asString()).isEqualTo("main");
    assertThat(submitted.get("submitted_reason").asString()).isEqualTo("API_REQUESTED");
    JsonNode canceled = event(got, "pull_request.canceled");
    assertThat(canceled.get("status").asString()).isEqualTo("cancelled");
    assertThat(canceled.get("cancellation_reason").asString()).isEqualTo("USER_REQUESTED");
  }

  @Test
  void aReceiverDownForAWhileGetsEveryEventWithTheSameWebhookId() throws Exception {
    receiver.answer(n -> n <= 4 ? 503 : 200);
    subscribe(receiver.url(), null);
    String repo = Api.uniqueRepo();
    create(api, repo, 1);
    submit(api, repo, 1);
    submit(api, repo, 2);

    List<WebhookReceiver.Received> got = awaitDelivered(repo, 2);

    Set<String> failedIds =
        receiver.received().stream()
            .filter(r -> r.answeredWith() == 503)
            .map(r -> r.header("webhook-id"))
            .collect(Collectors.toSet());
    Set<String> deliveredIds =
        got.stream().map(r -> r.header("webhook-id")).collect(Collectors.toSet());
    assertThat(failedIds).isNotEmpty();
    assertThat(deliveredIds).containsAll(failedIds).hasSize(2);
    // the receiver has its 200 before the dispatcher writes the outcome to its log
    JsonNode retried =
        Awaitility.await()
            .atMost(PATIENCE)
            .until(
                () -> loggedDelivery(failedIds),
                d -> d != null && d.get("status").asString().equals("delivered"));
    assertThat(retried.get("attempts").get(0).get("statusCode").asInt()).isEqualTo(503);
  }

  @Test
  void aDispatcherStoppedInTheMiddleOfARetryScheduleLosesNothing() throws Exception {
    receiver.answer(n -> 503);
    subscribe(receiver.url(), null);
    String repo = Api.uniqueRepo();
    create(api, repo, 1);
    for (long pr = 1; pr <= 3; pr++) {
      submit(api, repo, pr);
    }
    Awaitility.await().atMost(PATIENCE).until(() -> receiver.received().size() >= 3);

    stack.services().dispatcherContext().close(); // gone mid-schedule
    receiver.answer(n -> 200);
    stack.services().restartDispatcher(stack.properties());

    List<WebhookReceiver.Received> got = awaitDelivered(repo, 3);
    assertThat(got.stream().map(r -> r.header("webhook-id")).distinct()).hasSize(3);
  }

  @Test
  void theLogPagesThroughEveryDeliveryAndRedeliverSendsOneAgainWithItsId() throws Exception {
    subscribe(receiver.url(), null);
    String repo = Api.uniqueRepo();
    create(api, repo, 1);
    for (long pr = 1; pr <= 3; pr++) {
      submit(api, repo, pr);
    }
    awaitDelivered(repo, 3);

    Set<String> walked = new HashSet<>();
    String cursor = null;
    do {
      JsonNode page =
          api.post(
                  "/v1/webhooks/listDeliveries",
                  "{\"take\":1" + (cursor == null ? "" : ",\"cursor\":\"" + cursor + "\"") + "}")
              .json();
      assertThat(page.get("deliveries")).hasSize(1);
      assertThat(walked.add(page.get("deliveries").get(0).get("id").asString())).isTrue();
      cursor = page.has("nextCursor") ? page.get("nextCursor").asString() : null;
    } while (cursor != null);
    Set<String> delivered =
        delivered(repo).stream().map(r -> r.header("webhook-id")).collect(Collectors.toSet());
    assertThat(walked).containsAll(delivered);

    String again = delivered.iterator().next();
    Api stranger = stack.otherOrganization().api();
    assertThat(stranger.post("/v1/webhooks/listDeliveries", "{\"take\":100}").body())
        .as("another organization's log")
        .doesNotContain(again);
    assertThat(
            stranger.post("/v1/webhooks/redeliver", "{\"deliveryId\":\"" + again + "\"}").status())
        .as("another organization's delivery")
        .isEqualTo(404);
    assertThat(api.post("/v1/webhooks/redeliver", "{\"deliveryId\":\"" + again + "\"}").status())
        .isEqualTo(200);
    Awaitility.await()
        .atMost(PATIENCE)
        .until(
            () ->
                delivered(repo).stream().filter(r -> r.header("webhook-id").equals(again)).count(),
            n -> n == 2);
  }

  @Test
  void aSlowEndpointDoesNotDelayAHealthyOne() throws Exception {
    try (WebhookReceiver slow = new WebhookReceiver()) {
      slow.delay(3_000);
      subscribe(slow.url(), null);
      subscribe(receiver.url(), null);
      String repo = Api.uniqueRepo();
      create(api, repo, 1);
      for (long pr = 1; pr <= 20; pr++) {
        submit(api, repo, pr);
      }

      List<WebhookReceiver.Received> healthy = awaitDelivered(repo, 20);

      List<Long> delays = new ArrayList<>();
      for (WebhookReceiver.Received r : healthy) {
        Instant happened =
            Instant.parse(Json.mapper().readTree(r.body()).get("timestamp").asString());
        delays.add(Duration.between(happened, r.at()).toMillis());
      }
      long worstHealthy = delays.stream().mapToLong(Long::longValue).max().orElseThrow();
      assertThat(worstHealthy)
          .as("the healthy endpoint's slowest delivery, while each slow one takes 3 s")
          .isLessThan(2_000);
      Awaitility.await()
          .atMost(PATIENCE)
          .until(() -> slow.received().size(), n -> n >= 1); // it is served, just slowly
      System.out.printf(
          "healthy endpoint: slowest delivery %d ms beside a 3,000 ms endpoint%n", worstHealthy);
    }
  }

  @Test
  void anEndpointDisabledOnGoneIsEnabledAgainAndGetsTheEventsFromThenOn() {
    receiver.answer(n -> 410);
    Api.Response created =
        api.post(
            "/v1/webhooks/createEndpoint",
            "{\"url\":\"" + receiver.url() + "\",\"eventTypes\":[\"pull_request.*\"]}");
    String id = created.json().get("id").asString();
    String enable = "{\"id\":\"" + id + "\"}";
    String repo = Api.uniqueRepo();
    create(api, repo, 1);
    submit(api, repo, 1);
    Awaitility.await().atMost(PATIENCE).until(() -> endpoint(id).get("disabled").asBoolean());
    assertThat(endpoint(id).get("disabledReason").isNull()).isFalse();

    receiver.answer(n -> 200);
    assertThat(stack.otherOrganization().api().post("/v1/webhooks/enableEndpoint", enable).status())
        .as("another organization's endpoint")
        .isEqualTo(404);
    assertThat(api.post("/v1/webhooks/enableEndpoint", "{}").status()).isEqualTo(400);
    assertThat(api.post("/v1/webhooks/enableEndpoint", enable).status()).isEqualTo(200);
    assertThat(endpoint(id).get("disabled").asBoolean()).isFalse();
    assertThat(endpoint(id).get("disabledReason").isNull()).isTrue();

    submit(api, repo, 2);
    assertThat(awaitDelivered(repo, 1))
        .extracting(r -> Json.mapper().readTree(r.body()).get("pr_number").asLong())
        .contains(2L);
  }

  private JsonNode endpoint(String id) {
    for (JsonNode e : api.post("/v1/webhooks/listEndpoints", "{}").json().get("endpoints")) {
      if (e.get("id").asString().equals(id)) {
        return e;
      }
    }
    throw new AssertionError("no endpoint " + id);
  }

  private String subscribe(String url, String eventTypes) {
    Api.Response created =
        api.post(
            "/v1/webhooks/createEndpoint",
            "{\"url\":\""
                + url
                + "\""
                + (eventTypes == null ? "" : ",\"eventTypes\":" + eventTypes)
                + "}");
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return created.json().get("secret").asString();
  }

  /** The deliveries for {@code repo}'s events once {@code count} have arrived. */
  private List<WebhookReceiver.Received> awaitDelivered(String repo, int count) {
    Awaitility.await().atMost(PATIENCE).until(() -> delivered(repo).size(), n -> n >= count);
    return delivered(repo);
  }

  private List<WebhookReceiver.Received> delivered(String repo) {
    return receiver.delivered().stream()
        .filter(r -> r.body().contains("\"" + repo + "\""))
        .toList();
  }

  private static JsonNode event(List<WebhookReceiver.Received> got, String type) {
    return got.stream()
        .map(r -> Json.mapper().readTree(r.body()))
        .filter(e -> e.get("type").asString().equals(type))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + type));
  }

  private static Set<String> fieldNames(JsonNode node) {
    Set<String> names = new HashSet<>();
    node.propertyNames().forEach(names::add);
    return names;
  }

  /** The first delivery in the log with one of these ids, or null. */
  private JsonNode loggedDelivery(Set<String> ids) {
    for (JsonNode d : api.post("/v1/webhooks/listDeliveries", "{}").json().get("deliveries")) {
      if (ids.contains(d.get("id").asString())) {
        return d;
      }
    }
    return null;
  }
}
