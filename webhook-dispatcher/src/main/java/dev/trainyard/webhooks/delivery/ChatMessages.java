package dev.trainyard.webhooks.delivery;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.webhook.ChatFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * An event (API.md §7) as a chat message: a Slack incoming-webhook message ({@code text}, the
 * fallback notifications show, and {@code blocks}) or a Teams message carrying an Adaptive Card.
 * Each names the queue, the PR with a link to it (its page on github.com; elsewhere the source host
 * has no PR page, so trainyard's) and to trainyard's page of it, the state and its reason, and the
 * author, mentioned when the endpoint maps the author's login to a chat id. Text from the event is
 * escaped for Slack's markup, so no title or reason can mention a channel or link elsewhere.
 */
public final class ChatMessages {
  /**
   * The longest text a block holds: Slack refuses a section's text over 3,000 characters, and a
   * Teams message over about 28 KB. A test's name or a freeze reason may be longer.
   */
  static final int MAX_TEXT = 3_000;

  /** The source host whose PRs have pages at {@code /owner/name/pull/N}. */
  private static final String GITHUB = "github.com";

  private static final String[] REASONS = {
    "submitted_reason",
    "queued_reason",
    "failure_reason",
    "cancellation_reason",
    "merged_reason",
    "reason"
  };

  private ChatMessages() {}

  /**
   * The body an endpoint of {@code format} receives for the event {@code event} of {@code type}.
   */
  public static String body(
      ChatFormat format,
      String event,
      String type,
      Map<String, String> mentions,
      String publicUrl) {
    if (format == ChatFormat.STANDARD) {
      return Payloads.body(event, type, publicUrl);
    }
    Message message;
    try {
      message = Message.of(Json.mapper().readTree(event), type, publicUrl);
    } catch (JacksonException notJson) {
      // an event that is not JSON still reaches the chat, named by its type: a delivery that
      // failed here would fail the intake's whole batch, again on every redelivery
      message = new Message(type, null, null, null, Map.of("trainyard", publicUrl));
    }
    Object body = format == ChatFormat.SLACK ? slack(message, mentions) : teams(message, mentions);
    return Json.mapper().writeValueAsString(body);
  }

  /**
   * What a message says, in plain text: a headline naming the subject and what happened, the queue,
   * the reason, the author's login and the links (label to URL, in order).
   */
  record Message(
      String headline, String queue, String reason, String author, Map<String, String> links) {

    static Message of(JsonNode event, String type, String publicUrl) {
      String action = type.substring(type.lastIndexOf('.') + 1).replace('_', ' ');
      JsonNode repo = event.path("repository");
      String host = repo.path("host").asString("");
      String fullName = repo.path("owner").asString("") + "/" + repo.path("name").asString("");
      String branch = event.path("target_branch").asString("");
      String queue =
          repo.isMissingNode() ? null : fullName + (branch.isEmpty() ? "" : ":" + branch);
      Map<String, String> links = new LinkedHashMap<>();
      String details = event.path("http_details_url").asString(null);
      String headline;
      if (type.startsWith("pull_request.")) {
        long pr = event.path("pr_number").asLong();
        headline = fullName + "#" + pr + " " + action;
        pullRequestUrl(host, fullName, pr).ifPresent(url -> links.put("#" + pr, url));
      } else if (type.startsWith("pull_request_batch.")) {
        List<String> prs = new ArrayList<>();
        event.path("pr_numbers").forEach(n -> prs.add("#" + n.asLong()));
        headline = "batch " + String.join(", ", prs) + " of " + fullName + " " + action;
      } else if (type.startsWith("queue.")) {
        headline = "queue " + queue + " " + action;
        String until = event.path("until").asString(null);
        if (until != null) {
          headline += " until " + until;
        }
      } else if (type.startsWith("test_case.")) {
        JsonNode test = event.path("test_case");
        String name = test.path("name").asString(test.path("id").asString("a test"));
        String now = event.path("status_change").path("current_status").path("value").asString("");
        headline = "test " + name + (now.isEmpty() ? " " + action : " is now " + humane(now));
        details = test.path("html_url").asString(details);
      } else if (type.startsWith("test_results.")) {
        headline =
            "test results of "
                + fullName
                + " classified: "
                + event.path("failed_tests").asLong()
                + " failed, "
                + event.path("unexcused_failures").asLong()
                + " not excused";
      } else if (type.startsWith("audit_event.")) {
        JsonNode audit = event.path("audit_event");
        headline =
            "audit: "
                + audit.path("action").asString("an action")
                + " by "
                + audit
                    .path("actor")
                    .path("name")
                    .asString(audit.path("actor").asString("someone"));
      } else {
        headline = type;
      }
      links.put("trainyard", details != null ? details : publicUrl);
      return new Message(
          limit(headline), queue, limit(reason(event)), event.path("author").asString(null), links);
    }

    private static Optional<String> pullRequestUrl(String host, String fullName, long pr) {
      return GITHUB.equalsIgnoreCase(host)
          ? Optional.of("https://github.com/" + fullName + "/pull/" + pr)
          : Optional.empty();
    }

    private static String reason(JsonNode event) {
      for (String field : REASONS) {
        String value = event.path(field).asString(null);
        if (value != null && !value.isBlank()) {
          long cause = event.path("cancelled_by_pr").asLong(0);
          return field.equals("reason")
              ? value
              : humane(value) + (cause > 0 ? " (#" + cause + ")" : "");
        }
      }
      return null;
    }
  }

  /** A JSON object's fields in the order given (name, value, name, value, …). */
  private static Map<String, Object> fields(Object... namesAndValues) {
    Map<String, Object> fields = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      fields.put((String) namesAndValues[i], namesAndValues[i + 1]);
    }
    return fields;
  }

  /** At most {@link #MAX_TEXT} characters, with an ellipsis when cut (null stays null). */
  static String limit(String text) {
    return text == null || text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT - 1) + "…";
  }

  /** {@code TEST_RUN_REQUIRED_STATUS_FAILED} as {@code test run required status failed}. */
  static String humane(String code) {
    return code.toLowerCase(Locale.ROOT).replace('_', ' ');
  }

  private static Map<String, Object> slack(Message m, Map<String, String> mentions) {
    List<String> lines = new ArrayList<>();
    lines.add("*" + slackEscape(m.headline()) + "*");
    if (m.reason() != null) {
      lines.add("Reason: " + slackEscape(m.reason()));
    }
    List<String> context = new ArrayList<>();
    if (m.queue() != null) {
      context.add("Queue `" + slackEscape(m.queue()) + "`");
    }
    if (m.author() != null) {
      String member = mentions.get(m.author());
      context.add("Author " + (member != null ? "<@" + member + ">" : slackEscape(m.author())));
    }
    List<String> links = new ArrayList<>();
    m.links()
        .forEach((label, url) -> links.add("<" + slackUrl(url) + "|" + slackEscape(label) + ">"));
    context.add(String.join(" · ", links));
    Map<String, Object> section =
        fields(
            "type", "section", "text", fields("type", "mrkdwn", "text", String.join("\n", lines)));
    Map<String, Object> footer =
        fields(
            "type",
            "context",
            "elements",
            List.of(fields("type", "mrkdwn", "text", String.join(" · ", context))));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put(
        "text",
        slackEscape(m.headline()) + (m.reason() == null ? "" : ": " + slackEscape(m.reason())));
    body.put("blocks", List.of(section, footer));
    return body;
  }

  /** Slack's three control characters, as its formatting guide asks. */
  static String slackEscape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /** A URL inside {@code <url|label>}: its delimiters cannot appear in it. */
  private static String slackUrl(String url) {
    return url.replace("|", "%7C").replace("<", "%3C").replace(">", "%3E");
  }

  private static Map<String, Object> teams(Message m, Map<String, String> mentions) {
    List<Map<String, Object>> facts = new ArrayList<>();
    List<Map<String, Object>> entities = new ArrayList<>();
    if (m.queue() != null) {
      facts.add(fields("title", "Queue", "value", m.queue()));
    }
    if (m.reason() != null) {
      facts.add(fields("title", "Reason", "value", m.reason()));
    }
    if (m.author() != null) {
      String user = mentions.get(m.author());
      String tag = "<at>" + m.author() + "</at>";
      facts.add(fields("title", "Author", "value", user != null ? tag : m.author()));
      if (user != null) {
        entities.add(
            fields(
                "type",
                "mention",
                "text",
                tag,
                "mentioned",
                fields("id", user, "name", m.author())));
      }
    }
    List<Map<String, Object>> actions = new ArrayList<>();
    m.links()
        .forEach(
            (label, url) ->
                actions.add(fields("type", "Action.OpenUrl", "title", label, "url", url)));
    List<Map<String, Object>> content = new ArrayList<>();
    content.add(
        fields("type", "TextBlock", "text", m.headline(), "weight", "Bolder", "wrap", true));
    if (!facts.isEmpty()) {
      content.add(fields("type", "FactSet", "facts", facts));
    }
    Map<String, Object> card = new LinkedHashMap<>();
    card.put("$schema", "http://adaptivecards.io/schemas/adaptive-card.json");
    card.put("type", "AdaptiveCard");
    card.put("version", "1.4");
    card.put("body", content);
    card.put("actions", actions);
    if (!entities.isEmpty()) {
      card.put("msteams", fields("entities", entities));
    }
    Map<String, Object> attachment = new LinkedHashMap<>();
    attachment.put("contentType", "application/vnd.microsoft.card.adaptive");
    attachment.put("contentUrl", null);
    attachment.put("content", card);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", "message");
    body.put("attachments", List.of(attachment));
    return body;
  }
}
