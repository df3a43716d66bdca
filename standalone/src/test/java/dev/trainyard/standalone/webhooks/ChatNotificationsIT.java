package dev.trainyard.standalone.webhooks;

import static dev.trainyard.standalone.support.QueueSteps.awaitState;
import static dev.trainyard.standalone.support.QueueSteps.create;
import static dev.trainyard.standalone.support.QueueSteps.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import dev.trainyard.standalone.queue.QueueScenario;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.WebhookReceiver;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * Chat notifications end to end (API.md §6 {@code format}, {@code mentions}): a PR merged on real
 * git reaches a Slack-format receiver as an incoming-webhook message with its links and the author
 * mentioned, after the receiver's 429 and the Retry-After it asked for; a Teams-format receiver
 * gets the Adaptive Card; {@code updateEndpoint} changes the format and refuses what no chat can
 * take, naming the field.
 */
class ChatNotificationsIT extends QueueScenario {

  private String endpoint(WebhookReceiver receiver, String format, String mentions) {
    Api.Response created =
        api.post(
            "/v1/webhooks/createEndpoint",
            "{\"url\":\""
                + receiver.url()
                + "\",\"eventTypes\":[\"pull_request.merged\"],\"format\":\""
                + format
                + "\",\"mentions\":"
                + mentions
                + "}");
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    assertThat(created.json().get("format").asString()).isEqualTo(format);
    return created.json().get("id").asString();
  }

  @Test
  void aMergeReachesSlackAfterItsRetryAfterAndTeamsAsACard() throws Exception {
    try (WebhookReceiver slack = new WebhookReceiver();
        WebhookReceiver teams = new WebhookReceiver()) {
      slack.answer(n -> n == 1 ? 429 : 200);
      slack.retryAfter("2");
      endpoint(slack, "slack", "{\"ann\":\"U024BE7LH\"}");
      endpoint(teams, "teams", "{\"ann\":\"ann@example.com\"}");
      create(api, name, 1);
      git.openPr(1, "Add a", "ann", "a.txt", "a\n");

      submit(api, name, 1);
      awaitState(api, name, 1, "merged");

      Awaitility.await()
          .atMost(QueueSteps.PATIENCE)
          .until(() -> slack.delivered().size() == 1 && teams.delivered().size() == 1);
      List<WebhookReceiver.Received> tries = slack.received();
      assertThat(tries)
          .extracting(WebhookReceiver.Received::answeredWith)
          .containsExactly(429, 200);
      assertThat(Duration.between(tries.get(0).at(), tries.get(1).at()))
          .as("the second try waits for the Retry-After of the first")
          .isGreaterThanOrEqualTo(Duration.ofMillis(1900));
      assertThat(tries.get(1).header("webhook-id")).isEqualTo(tries.get(0).header("webhook-id"));

      JsonNode message = Json.mapper().readTree(tries.get(1).body());
      assertThat(message.get("text").asString()).startsWith("acme/" + name + "#1 merged");
      String context = message.get("blocks").get(1).get("elements").get(0).get("text").asString();
      assertThat(context)
          .contains("<https://github.com/acme/" + name + "/pull/1|#1>")
          .contains("/merge-queue/github.com/acme/" + name + "/main/1|trainyard>")
          .contains("Author <@U024BE7LH>");

      JsonNode card =
          Json.mapper().readTree(teams.delivered().get(0).body()).get("attachments").get(0);
      assertThat(card.get("contentType").asString())
          .isEqualTo("application/vnd.microsoft.card.adaptive");
      JsonNode mentioned =
          card.get("content").get("msteams").get("entities").get(0).get("mentioned");
      assertThat(mentioned.get("id").asString()).isEqualTo("ann@example.com");
      assertThat(mentioned.get("name").asString()).isEqualTo("ann");
    }
  }

  @Test
  void updateEndpointChangesTheFormatAndKeepsTheRest() throws Exception {
    try (WebhookReceiver receiver = new WebhookReceiver()) {
      String id = endpoint(receiver, "slack", "{\"ann\":\"U024BE7LH\"}");

      Api.Response updated =
          api.post(
              "/v1/webhooks/updateEndpoint",
              "{\"id\":\"" + id + "\",\"format\":\"standard\",\"description\":\"merges\"}");

      assertThat(updated.status()).as(updated.body()).isEqualTo(200);
      assertThat(updated.json().get("format").asString()).isEqualTo("standard");
      assertThat(updated.json().get("mentions").isEmpty()).as("no one to mention").isTrue();
      assertThat(updated.json().get("description").asString()).isEqualTo("merges");
      assertThat(updated.json().get("eventTypes").get(0).asString())
          .isEqualTo("pull_request.merged");
      assertThat(api.post("/v1/webhooks/listEndpoints", "{}").body())
          .contains("\"format\":\"standard\"");
    }
  }

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource(
      delimiter = ';',
      value = {
        "\"format\":\"discord\";400;format must be one of standard|slack|teams",
        "\"mentions\":{\"ann\":\"<!channel>\"};400;Slack member id",
        "\"mentions\":{\"ann\":7};400;mentions.ann must be a string",
        "\"mentions\":[\"ann\"];400;mentions must be an object",
        "\"url\":\"ftp://93.184.216.34/hook\";400;url must use http or https",
        "\"format\":\"teams\";400;Teams user",
        "\"eventTypes\":[\"pull request\"];400;eventTypes entries",
      })
  void badChangesAreRefusedNamingTheFieldAndChangeNothing(String change, int status, String why)
      throws Exception {
    try (WebhookReceiver receiver = new WebhookReceiver()) {
      String id = endpoint(receiver, "slack", "{\"ann\":\"U024BE7LH\"}");

      Api.Response refused =
          api.post("/v1/webhooks/updateEndpoint", "{\"id\":\"" + id + "\"," + change + "}");

      assertThat(refused.status()).as(refused.body()).isEqualTo(status);
      assertThat(refused.body()).contains(why);
      assertThat(api.post("/v1/webhooks/listEndpoints", "{}").body())
          .contains("\"format\":\"slack\"")
          .contains("U024BE7LH");
    }
  }

  @Test
  void anUnknownEndpointIsA404AndAnEmptyChangeA400() {
    assertThat(
            api.post("/v1/webhooks/updateEndpoint", "{\"id\":\"ep_none\",\"format\":\"slack\"}")
                .status())
        .isEqualTo(404);
    assertThat(api.post("/v1/webhooks/updateEndpoint", "{\"id\":\"ep_none\"}").body())
        .contains("give at least one of");
  }
}
