package dev.trainyard.common.webhook;

import dev.trainyard.common.queue.WireEnum;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What an endpoint receives: the event as API.md §7 describes it ({@code standard}), a Slack
 * incoming-webhook message ({@code slack}) or a Microsoft Teams message carrying an Adaptive Card
 * ({@code teams}). The chat formats may mention the PR's author: an endpoint's {@code mentions} map
 * a source-host login to the chat's id of that person, checked here so that no stored value can
 * mention more than one person (Slack's {@code <!channel>}, a Teams card's markup).
 */
public enum ChatFormat implements WireEnum {
  STANDARD,
  SLACK,
  TEAMS;

  /** How many people one endpoint may map. */
  public static final int MAX_MENTIONS = 500;

  /** GitHub's logins: letters, digits and single hyphens, at most 39 characters. */
  private static final Pattern LOGIN =
      Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}(\\[bot\\])?");

  /** A Slack member id ({@code U024BE7LH}; {@code W…} on Enterprise Grid). */
  private static final Pattern SLACK_MEMBER = Pattern.compile("[UW][A-Z0-9]{2,20}");

  /** A Teams user: an Entra object id or a user principal name (an address). */
  private static final Pattern TEAMS_USER =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
              + "|[A-Za-z0-9._%+'-]{1,64}@[A-Za-z0-9.-]{1,190}\\.[A-Za-z]{2,63}");

  /** The format stored; absent (an endpoint stored before formats) is standard. */
  public static ChatFormat of(String wire) {
    return WireEnum.parse(ChatFormat.class, wire).orElse(STANDARD);
  }

  /**
   * What is wrong with {@code mentions} for an endpoint of this format, or empty: only the chat
   * formats mention anyone; keys are source-host logins, values the chat's ids of people.
   */
  public Optional<String> problemWith(Map<String, String> mentions) {
    if (mentions == null || mentions.isEmpty()) {
      return Optional.empty();
    }
    if (this == STANDARD) {
      return Optional.of("mentions are for the slack and teams formats only");
    }
    if (mentions.size() > MAX_MENTIONS) {
      return Optional.of("mentions may map at most " + MAX_MENTIONS + " people");
    }
    Pattern person = this == SLACK ? SLACK_MEMBER : TEAMS_USER;
    for (Map.Entry<String, String> mention : mentions.entrySet()) {
      if (!LOGIN.matcher(mention.getKey()).matches()) {
        return Optional.of(
            "mentions keys are source-host logins (letters, digits, hyphens); got '"
                + shorten(mention.getKey())
                + "'");
      }
      String value = mention.getValue();
      if (value == null || !person.matcher(value).matches()) {
        return Optional.of(
            "mentions."
                + mention.getKey()
                + (this == SLACK
                    ? " must be a Slack member id (U024BE7LH)"
                    : " must be a Teams user's object id or address (ada@example.com)")
                + "; got '"
                + shorten(String.valueOf(value))
                + "'");
      }
    }
    return Optional.empty();
  }

  private static String shorten(String text) {
    return text.length() <= 64 ? text : text.substring(0, 64) + "…";
  }
}
