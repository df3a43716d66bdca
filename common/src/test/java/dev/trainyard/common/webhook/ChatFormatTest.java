package dev.trainyard.common.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which mentions an endpoint of each format may store: one person per value, never a crowd. */
class ChatFormatTest {

  @ParameterizedTest(name = "{0}: {1} -> {2} is {3}")
  @CsvSource({
    "slack, ada, U024BE7LH, ok",
    "slack, ada-l, W012A3CDE, ok",
    "slack, dependabot[bot], U0BOT, ok",
    "slack, ada, !channel, Slack member id",
    "slack, ada, <!here>, Slack member id",
    "slack, ada, u024be7lh, Slack member id",
    "slack, ada, ada@example.com, Slack member id",
    "slack, -ada, U024BE7LH, source-host logins",
    "slack, ada--l, U024BE7LH, source-host logins",
    "slack, a234567890123456789012345678901234567890, U024BE7LH, source-host logins",
    "teams, ada, ada@example.com, ok",
    "teams, ada, 0f8fad5b-d9cb-469f-a165-70867728950e, ok",
    "teams, ada, U024BE7LH, Teams user",
    "teams, ada, <at>everyone</at>, Teams user",
    "standard, ada, U024BE7LH, slack and teams formats only",
  })
  void aMentionNamesOnePerson(String format, String login, String id, String verdict) {
    ChatFormat chat = ChatFormat.of(format);

    var problem = chat.problemWith(Map.of(login, id));

    if (verdict.equals("ok")) {
      assertThat(problem).isEmpty();
    } else {
      assertThat(problem).get().asString().contains(verdict);
    }
  }

  @ParameterizedTest(name = "{0} mentions for slack")
  @CsvSource({"500, true", "501, false"})
  void anEndpointMapsABoundedNumberOfPeople(int people, boolean accepted) {
    Map<String, String> mentions = new HashMap<>();
    for (int i = 0; i < people; i++) {
      mentions.put("dev" + i, "U" + (100000 + i));
    }

    assertThat(ChatFormat.SLACK.problemWith(mentions).isEmpty()).isEqualTo(accepted);
  }

  @ParameterizedTest(name = "stored {0} is {1}")
  @CsvSource(
      value = {"NULL, STANDARD", "standard, STANDARD", "slack, SLACK", "teams, TEAMS"},
      nullValues = "NULL")
  void anEndpointStoredBeforeFormatsIsStandard(String stored, ChatFormat expected) {
    assertThat(ChatFormat.of(stored)).isEqualTo(expected);
  }
}
