package dev.trainyard.standalone.guarantees;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.Api.prBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.trainyard.gateway.http.HeldBodies;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.EventLog;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.RawRequest;
import dev.trainyard.standalone.support.Stack;
import dev.trainyard.standalone.support.TestStack;
import dev.trainyard.worker.processing.CommandListener;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.bson.Document;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * {@code Idempotency-Key} (API.md §1 Retries, issue 14 item 6): the same key and body answer as the
 * first request did with no second effect, also when the first answer was a 503 and the command was
 * applied after it; another body is a 422.
 */
class IdempotencyIT extends OwnStack {
  private Api api;
  private String repo;

  @BeforeEach
  void queue() {
    api = stack.api();
    repo = Api.uniqueRepo();
    assertThat(api.post("/v1/createQueue", body(repo, "")).status()).isEqualTo(200);
    assertThat(api.post("/v1/submitPullRequest", prBody(repo, 1)).status()).isEqualTo(200);
  }

  @Test
  void aRetriedCancelAnswersAsTheFirstAndCancelsOnce() {
    String key = UUID.randomUUID().toString();
    Api.Response first = post(api, "/v1/cancelPullRequest", prBody(repo, 1), key);
    Api.Response again = post(api, "/v1/cancelPullRequest", prBody(repo, 1), key);

    assertThat(first.status()).as(first.body()).isEqualTo(200);
    assertThat(again.status()).as("without the key, the second cancel is a 404").isEqualTo(200);
    assertThat(again.body()).isEqualTo(first.body());
    assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(events("pull_request.canceled")).isEqualTo(1);
  }

  @Test
  void aKeyedChunkedBodyPastTheRouteLimitIsRefusedAtTheLimit() throws Exception {
    long size = 120L * 1024 * 1024;
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("x-api-token", api.token());
    headers.put("Content-Type", "application/json");
    headers.put("Idempotency-Key", UUID.randomUUID().toString());
    byte[] head =
        ("{\"repo\":{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\""
                + repo
                + "\"},\"pr\":{\"number\":2},\"x\":\"")
            .getBytes(StandardCharsets.UTF_8);

    RawRequest.Answer answer =
        RawRequest.post(
            stack.services().gatewayPort(),
            "/v1/submitPullRequest",
            headers,
            head,
            "a".getBytes(StandardCharsets.UTF_8),
            size,
            true);

    assertThat(answer.status()).as(answer.body()).isEqualTo(413);
    assertThat(answer.body()).contains("limit of 20 MiB");
    // refused at the route's 20 MiB as the body streamed, not read on to the upload's 100 MiB
    assertThat(answer.bytesSent()).isLessThan(40L * 1024 * 1024);
    Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(stack.services().gatewayContext().getBean(HeldBodies.class).held())
                    .as("no memory stays held")
                    .isZero());
    assertThat(api.post("/v1/getSubmittedPullRequest", prBody(repo, 2)).status()).isEqualTo(404);
  }

  @Test
  void anAnswerThatWasAnErrorIsKeptToo() {
    String key = UUID.randomUUID().toString();
    Api.Response first = post(api, "/v1/cancelPullRequest", prBody(repo, 99), key);
    assertThat(first.status()).isEqualTo(404);
    Api.Response again = post(api, "/v1/cancelPullRequest", prBody(repo, 99), key);
    assertThat(again.status()).isEqualTo(404);
    assertThat(again.body()).isEqualTo(first.body());
  }

  @Test
  void aRetryAfterA503WhoseCommandWasAppliedLaterHasNoSecondEffect() {
    MessageListenerContainer commands =
        stack
            .services()
            .workerContext()
            .getBean(KafkaListenerEndpointRegistry.class)
            .getListenerContainer(CommandListener.ID);
    String key = UUID.randomUUID().toString();
    commands.stop();
    Api.Response first;
    try {
      first = post(api, "/v1/cancelPullRequest", prBody(repo, 1), key);
    } finally {
      commands.start();
    }
    assertThat(first.status()).as("the worker was away").isEqualTo(503);
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> events("pull_request.canceled") == 1);

    Api.Response retried = post(api, "/v1/cancelPullRequest", prBody(repo, 1), key);
    assertThat(retried.status()).as(retried.body()).isEqualTo(200);
    Api.Response withoutKey = api.post("/v1/cancelPullRequest", prBody(repo, 1));
    assertThat(withoutKey.status()).as("a plain retry cancels again: 404").isEqualTo(404);
    assertThat(events("pull_request.canceled")).isEqualTo(1);
  }

  @Test
  void theSameKeyWithAnotherBodyIs422AndBadKeysAre400() {
    String key = UUID.randomUUID().toString();
    assertThat(post(api, "/v1/submitPullRequest", prBody(repo, 2), key).status()).isEqualTo(200);
    Api.Response other = post(api, "/v1/submitPullRequest", prBody(repo, 3), key);
    assertThat(other.status()).isEqualTo(422);
    assertThat(other.body()).contains("Idempotency-Key");
    assertThat(post(api, "/v1/cancelPullRequest", prBody(repo, 2), key).status())
        .as("another path is another request")
        .isEqualTo(422);
    assertThat(post(api, "/v1/submitPullRequest", prBody(repo, 3), "x".repeat(256)).status())
        .isEqualTo(400);
    assertThat(post(api, "/v1/submitPullRequest", prBody(repo, 3), "").status()).isEqualTo(400);
    assertThat(api.post("/v1/getQueue", body(repo, "")).json().get("enqueuedPullRequests").size())
        .as("PR 3 was never submitted")
        .isEqualTo(2);
  }

  @Test
  void aKeyBelongsToItsOrganization() {
    Stack.Organization other = stack.otherOrganization();
    String otherRepo = Api.uniqueRepo();
    String key = UUID.randomUUID().toString();
    assertThat(post(api, "/v1/createQueue", body(otherRepo, ""), key).status()).isEqualTo(200);
    Api.Response theirs = post(other.api(), "/v1/createQueue", body(otherRepo, ""), key);
    assertThat(theirs.status()).as(theirs.body()).isEqualTo(200);
    assertThat(theirs.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(other.api().post("/v1/getQueue", body(otherRepo, "")).status()).isEqualTo(200);
  }

  /**
   * A token or signing secret is shown once: the answer that carries it is never kept (before, the
   * live token sat in the store for 24 h and a repeat handed it out again).
   */
  @Test
  void anAnswerCarryingASecretIsNotKeptAndARepeatIsRefused() {
    String org = TestStack.ORG;
    String key = UUID.randomUUID().toString();
    Api.Response token =
        post(stack.admin(), "/admin/v1/createApiToken", "{\"org\":\"" + org + "\"}", key);
    assertThat(token.status()).as(token.body()).isEqualTo(200);
    String secret = token.json().get("token").asString();
    Api.Response endpoint =
        post(
            api,
            "/v1/webhooks/createEndpoint",
            "{\"url\":\"http://127.0.0.1:9/" + repo + "\"}",
            key);
    assertThat(endpoint.status()).as(endpoint.body()).isEqualTo(200);
    String signingSecret = endpoint.json().get("secret").asString();

    Api.Response again =
        post(stack.admin(), "/admin/v1/createApiToken", "{\"org\":\"" + org + "\"}", key);
    assertThat(again.status()).isEqualTo(409);
    assertThat(again.body()).contains("shown once").doesNotContain(secret);
    Api.Response endpointAgain =
        post(
            api,
            "/v1/webhooks/createEndpoint",
            "{\"url\":\"http://127.0.0.1:9/" + repo + "\"}",
            key);
    assertThat(endpointAgain.status()).isEqualTo(409);
    assertThat(endpointAgain.body()).doesNotContain(signingSecret);
    try (MongoClient client = MongoClients.create(stack.infrastructure().mongoUri())) {
      for (Document kept :
          client.getDatabase("trainyard").getCollection("idempotency_keys").find()) {
        assertThat(kept.toJson()).doesNotContain(secret).doesNotContain(signingSecret);
      }
    }
  }

  @Test
  void onAReadTheKeyChangesNothing() {
    String key = UUID.randomUUID().toString();
    Api.Response first = post(api, "/v1/getQueue", body(repo, ""), key);
    Api.Response other = post(api, "/v1/getSubmittedPullRequest", prBody(repo, 1), key);

    assertThat(first.status()).isEqualTo(200);
    assertThat(other.status())
        .as("another body with the same key is no 422 on a read")
        .isEqualTo(200);
    assertThat(other.headers().firstValue("Idempotent-Replayed")).isEmpty();
  }

  private static Api.Response post(Api client, String path, String json, String key) {
    HttpRequest.Builder request =
        client
            .request(path)
            .header("Idempotency-Key", key)
            .POST(HttpRequest.BodyPublishers.ofString(json));
    return client.send(request);
  }

  private long events(String type) {
    List<EventLog.Event> all = EventLog.readAll(stack.infrastructure().kafkaBootstrap());
    return all.stream()
        .filter(e -> e.type().equals(type))
        .filter(e -> e.body().path("repository").path("name").asString("").equals(repo))
        .count();
  }
}
