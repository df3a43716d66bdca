package dev.trainyard.cli;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** The server's answers as lines for a person. */
final class Describe {
  private Describe() {}

  /**
   * {@code #12 testing (position 2, merge expected 2026-09-17T10:41:00.000Z) "Add retry"}; a PR
   * that is not ready, or waits for a test run, says why.
   */
  static String pullRequest(JsonNode pr) {
    List<String> details = new ArrayList<>();
    if (pr.path("queuePosition").isNumber()) {
      details.add("position " + pr.path("queuePosition").asLong());
    }
    text(pr.path("estimatedMergeAt")).ifPresent(at -> details.add("merge expected " + at));
    text(pr.path("readiness").path("notReadyReason")).ifPresent(why -> details.add(why));
    if (pr.path("predictedRisk").isNumber()) {
      details.add("predicted risk " + pr.path("predictedRisk").asDouble());
    }
    text(pr.path("waitingReason")).ifPresent(why -> details.add(why));
    String line = "#" + pr.path("prNumber").asLong() + " " + text(pr.path("state")).orElse("?");
    if (!details.isEmpty()) {
      line += " (" + String.join(", ", details) + ")";
    }
    return line + text(pr.path("prTitle")).map(title -> " \"" + title + "\"").orElse("");
  }

  /** The queue's state and settings in a line, its freeze, then its pull requests in order. */
  static String queue(String name, JsonNode queue) {
    StringBuilder text =
        new StringBuilder(name)
            .append(": ")
            .append(text(queue.path("state")).orElse("?"))
            .append(" (")
            .append(text(queue.path("mode")).orElse("?"))
            .append(", concurrency ")
            .append(queue.path("concurrency").asLong())
            .append(", ")
            .append(text(queue.path("mergeMethod")).orElse("?"))
            .append(')');
    JsonNode freeze = queue.path("freeze");
    if (freeze.isObject()) {
      text.append("\nfrozen: ").append(text(freeze.path("reason")).orElse(""));
      text(freeze.path("until"))
          .ifPresent(until -> text.append(" (until ").append(until).append(')'));
    }
    JsonNode prs = queue.path("enqueuedPullRequests");
    if (prs.isArray()) {
      text.append("\n")
          .append(prs.size())
          .append(prs.size() == 1 ? " pull request" : " pull requests");
      prs.forEach(pr -> text.append("\n  ").append(pullRequest(pr)));
    }
    return text.toString();
  }

  /** {@code flaky sum.test adds 1 + 1 — passed and failed … [quarantined]}. */
  static String test(JsonNode test) {
    String name =
        text(test.path("classname")).map(c -> c + " ").orElse("")
            + text(test.path("name")).orElse("");
    return text(test.path("status").path("value")).orElse("?")
        + "  "
        + name
        + text(test.path("status").path("reason")).map(why -> " — " + why).orElse("")
        + (test.path("quarantined").asBoolean() ? " [quarantined]" : "");
  }

  static java.util.Optional<String> text(JsonNode node) {
    return node.isString() && !node.asString().isEmpty()
        ? java.util.Optional.of(node.asString())
        : java.util.Optional.empty();
  }
}
