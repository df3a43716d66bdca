package dev.trainyard.common.github;

import dev.trainyard.common.command.CommitState;
import dev.trainyard.common.command.QueueCommand.ReportStatus;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * GitHub's check runs and commit statuses as the CI results a queue records, one reading for both
 * the webhook deliveries and the worker's own reads of a commit (API.md §6). A check run that has
 * not completed is pending; a completed one passes when GitHub's required checks would count it as
 * passing ({@code success}, {@code neutral}, {@code skipped}), is an error when {@code cancelled},
 * and fails otherwise.
 */
public final class CheckReports {
  private static final Set<String> GREEN = Set.of("success", "neutral", "skipped");

  private CheckReports() {}

  /** A check run ({@code check_run} of a delivery, or an item of a commit's check runs). */
  public static ReportStatus ofCheckRun(JsonNode run) {
    CommitState state;
    if (!run.path("status").asString("").equals("completed")) {
      state = CommitState.PENDING;
    } else {
      String conclusion = run.path("conclusion").asString("");
      state =
          GREEN.contains(conclusion)
              ? CommitState.SUCCESS
              : conclusion.equals("cancelled") ? CommitState.ERROR : CommitState.FAILURE;
    }
    JsonNode app = run.path("app").path("id");
    JsonNode id = run.path("id");
    return new ReportStatus(
        run.path("head_sha").asString(""),
        run.path("name").asString(""),
        state,
        text(run.path("details_url")),
        text(run.path("output").path("title")),
        app.isNumber() ? app.asLong() : null,
        id.isNumber() ? id.asLong() : null);
  }

  /**
   * A commit status ({@code status} delivery, or an item of a commit's combined status) on {@code
   * sha}; empty for a state GitHub does not define.
   */
  public static Optional<ReportStatus> ofStatus(String sha, JsonNode status) {
    String state = status.path("state").asString("").toUpperCase(Locale.ROOT);
    if (Arrays.stream(CommitState.values()).noneMatch(s -> s.name().equals(state))) {
      return Optional.empty();
    }
    return Optional.of(
        new ReportStatus(
            sha,
            status.path("context").asString(""),
            CommitState.valueOf(state),
            text(status.path("target_url")),
            text(status.path("description"))));
  }

  private static String text(JsonNode node) {
    return node.isString() ? node.asString() : null;
  }
}
