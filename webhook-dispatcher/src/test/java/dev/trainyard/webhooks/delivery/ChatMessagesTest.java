package dev.trainyard.webhooks.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.webhook.ChatFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** Events of API.md §7 as the chat messages Slack and Teams endpoints receive. */
class ChatMessagesTest {
  private static final String PUBLIC = "https://trainyard.example.com";
  private static final String DETAILS = PUBLIC + "/acme/merge-queue/github.com/acme/api/main/12";

  private static String pullRequest(String host, String action, String reasonField, String reason) {
    return """
        {"type":"pull_request.%s","action":"%s","status":"%s","author":"ada",
         "http_details_url":"%s","pr_number":12,
         "repository":{"host":"%s","owner":"acme","name":"api"},"target_branch":"main",
         "timestamp":"2026-12-01T10:00:00.000Z","%s":"%s"}"""
        .formatted(action, action, action, DETAILS, host, reasonField, reason);
  }

  private static JsonNode slack(String event, String type, Map<String, String> mentions) {
    return Json.mapper()
        .readTree(ChatMessages.body(ChatFormat.SLACK, event, type, mentions, PUBLIC));
  }

  private static JsonNode teams(String event, String type, Map<String, String> mentions) {
    return Json.mapper()
        .readTree(ChatMessages.body(ChatFormat.TEAMS, event, type, mentions, PUBLIC));
  }

  /** A Slack message's context line: the queue, the author and the links. */
  private static String context(JsonNode slack) {
    return slack.get("blocks").get(1).get("elements").get(0).get("text").asString();
  }

  /** A Teams message's Adaptive Card. */
  private static JsonNode card(JsonNode teams) {
    return teams.get("attachments").get(0).get("content");
  }

  @ParameterizedTest(name = "{0}: {3}")
  @CsvSource({
    "merged, merged_reason, MERGE_GRAPH_MERGE, acme/api#12 merged: merge graph merge",
    "failed, failure_reason, TEST_RUN_REQUIRED_STATUS_FAILED,"
        + " acme/api#12 failed: test run required status failed",
    "canceled, cancellation_reason, PR_PUSHED_TO, acme/api#12 canceled: pr pushed to",
    "queued, queued_reason, TESTS_RESTARTED_FLAKY, acme/api#12 queued: tests restarted flaky",
    "pending_failure, failure_reason, TEST_RUN_TIMEOUT, acme/api#12 pending failure: test run timeout",
  })
  void aSlackMessageSaysWhatHappenedToWhichPrAndWhy(
      String action, String reasonField, String reason, String text) {
    JsonNode message =
        slack(
            pullRequest("github.com", action, reasonField, reason),
            "pull_request." + action,
            Map.of());

    assertThat(message.get("text").asString()).isEqualTo(text);
    String context = context(message);
    assertThat(context)
        .contains("Queue `acme/api:main`")
        .contains("Author ada")
        .contains("<https://github.com/acme/api/pull/12|#12>")
        .contains("<" + DETAILS + "|trainyard>");
  }

  @Test
  void aCancellationForAFailedDependencyNamesThePrThatFailed() {
    String event =
        pullRequest("github.com", "canceled", "cancellation_reason", "DEPENDENCY_FAILED")
            .replaceFirst("}$", ",\"cancelled_by_pr\":11}");

    assertThat(slack(event, "pull_request.canceled", Map.of()).get("text").asString())
        .isEqualTo("acme/api#12 canceled: dependency failed (#11)");
  }

  @Test
  void aMappedAuthorIsMentionedInSlackAndTeams() {
    String event = pullRequest("github.com", "merged", "merged_reason", "MERGE_GRAPH_MERGE");

    String context = context(slack(event, "pull_request.merged", Map.of("ada", "U024BE7LH")));
    JsonNode card = card(teams(event, "pull_request.merged", Map.of("ada", "ada@example.com")));

    assertThat(context).contains("Author <@U024BE7LH>");
    assertThat(card.get("body").get(1).get("facts").toString()).contains("<at>ada</at>");
    JsonNode mention = card.get("msteams").get("entities").get(0);
    assertThat(mention.get("text").asString()).isEqualTo("<at>ada</at>");
    assertThat(mention.get("mentioned").get("id").asString()).isEqualTo("ada@example.com");
  }

  @Test
  void anUnmappedAuthorIsNamedNotMentioned() {
    String event = pullRequest("github.com", "merged", "merged_reason", "MERGE_GRAPH_MERGE");

    JsonNode card = card(teams(event, "pull_request.merged", Map.of("grace", "grace@example.com")));

    assertThat(card.has("msteams")).isFalse();
    assertThat(card.get("body").get(1).get("facts").toString())
        .contains("\"ada\"")
        .doesNotContain("<at>");
  }

  @Test
  void aHostWithoutPullRequestPagesLinksTrainyardOnly() {
    String event = pullRequest("git.example.com", "merged", "merged_reason", "MERGE_GRAPH_MERGE");

    JsonNode card = teams(event, "pull_request.merged", Map.of()).get("attachments").get(0);
    JsonNode actions = card.get("content").get("actions");

    assertThat(card.get("contentType").asString())
        .isEqualTo("application/vnd.microsoft.card.adaptive");
    assertThat(actions).hasSize(1);
    assertThat(actions.get(0).get("url").asString()).isEqualTo(DETAILS);
  }

  @Test
  void textFromTheEventCannotMentionAChannelOrLinkElsewhere() {
    String event =
        """
        {"type":"queue.frozen","repository":{"host":"github.com","owner":"acme","name":"api"},
         "target_branch":"main","timestamp":"2026-12-01T10:00:00.000Z",
         "reason":"<!channel> release & <https://evil.example|click>"}""";

    JsonNode message = slack(event, "queue.frozen", Map.of());

    String section = message.get("blocks").get(0).get("text").get("text").asString();
    assertThat(section)
        .contains("*queue acme/api:main frozen*")
        .contains("&lt;!channel&gt; release &amp; &lt;https://evil.example|click&gt;")
        .doesNotContain("<!channel>");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "pull_request_batch.testing|{\"type\":\"pull_request_batch.testing\",\"pr_numbers\":[3,4],"
            + "\"repository\":{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\"api\"},"
            + "\"target_branch\":\"main\"}|batch #3, #4 of acme/api testing",
        "queue.unfrozen|{\"type\":\"queue.unfrozen\",\"repository\":{\"host\":\"github.com\","
            + "\"owner\":\"acme\",\"name\":\"api\"},\"target_branch\":\"main\",\"expired\":true}"
            + "|queue acme/api:main unfrozen",
        "test_results.classified|{\"type\":\"test_results.classified\",\"repository\":{\"host\":"
            + "\"github.com\",\"owner\":\"acme\",\"name\":\"api\"},\"failed_tests\":3,"
            + "\"unexcused_failures\":1}|test results of acme/api classified: 3 failed, 1 not excused",
        "test_case.status_changed|{\"type\":\"test_case.status_changed\",\"test_case\":{\"name\":"
            + "\"LoginTest\"},\"status_change\":{\"current_status\":{\"value\":\"FLAKY\"}}}"
            + "|test LoginTest is now flaky",
      })
  void everyEventTypeGetsAHeadline(String type, String event, String headline) {
    assertThat(slack(event, type, Map.of()).get("text").asString()).isEqualTo(headline);
    JsonNode card = teams(event, type, Map.of()).get("attachments").get(0).get("content");
    assertThat(card.get("body").get(0).get("text").asString()).isEqualTo(headline);
    assertThat(card.get("actions").get(0).get("url").asString()).isEqualTo(PUBLIC);
  }

  @Test
  void aLongReasonIsCutToWhatABlockHolds() {
    String event =
        """
        {"type":"queue.frozen","repository":{"host":"github.com","owner":"acme","name":"api"},
         "target_branch":"main","reason":"%s"}"""
            .formatted("r".repeat(10_000));

    String section =
        slack(event, "queue.frozen", Map.of())
            .get("blocks")
            .get(0)
            .get("text")
            .get("text")
            .asString();

    assertThat(section).hasSizeLessThanOrEqualTo(2 * ChatMessages.MAX_TEXT).endsWith("…");
  }

  @Test
  void anEventThatIsNotJsonIsNamedByItsTypeRatherThanFailingTheIntake() {
    JsonNode message = slack("{\"type\": truncated", "pull_request.merged", Map.of());

    assertThat(message.get("text").asString()).isEqualTo("pull_request.merged");
    assertThat(context(message)).contains("<" + PUBLIC + "|trainyard>");
  }

  @Test
  void aStandardEndpointGetsTheEventAsItIs() {
    String event = pullRequest("github.com", "merged", "merged_reason", "MERGE_GRAPH_MERGE");

    assertThat(
            ChatMessages.body(ChatFormat.STANDARD, event, "pull_request.merged", Map.of(), PUBLIC))
        .isEqualTo(event);
  }
}
