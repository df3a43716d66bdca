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

  /**
   * The context of the error trainyard records when a commit has more CI results than it reads or a
   * run keeps: a result left out could be a failure, so the run must not pass.
   */
  public static final String TOO_MANY = "trainyard/too-many-checks";

  private CheckReports() {}

  /** A check run ({@code check_run} of a delivery, or an item of a commit's check runs). */
  public static ReportStatus ofCheckRun(JsonNode run) {
    JsonNode app = run.path("app").path("id");
    JsonNode id = run.path("id");
    return new ReportStatus(
        run.path("head_sha").asString(""),
        run.path("name").asString(""),
        state(run),
        text(run.path("details_url")),
        text(run.path("output").path("title")),
        app.isNumber() ? app.asLong() : null,
        id.isNumber() ? id.asLong() : null);
  }

  /**
   * A check suite ({@code check_suite} of a delivery or of a check run, or an item of a commit's
   * check suites) of App {@code app} as a CI result named {@code check suite (<app slug>)}: pending
   * until it completes, so a workflow whose next job has no check run yet still holds a verdict
   * that counts every reported check. Empty for a suite GitHub lists without runs: GitHub creates
   * one on every push for each App that may write checks, and most never run anything.
   */
  public static Optional<ReportStatus> ofCheckSuite(JsonNode suite, JsonNode app) {
    JsonNode runs = suite.path("latest_check_runs_count");
    JsonNode id = app.path("id");
    if (!suite.path("head_sha").isString()
        || (runs.isNumber() && runs.asLong() == 0)
        || !id.isNumber()) {
      return Optional.empty();
    }
    return Optional.of(
        new ReportStatus(
            suite.path("head_sha").asString(""),
            suiteContext(app),
            state(suite),
            null,
            "check suite " + suite.path("status").asString(""),
            id.asLong(),
            null));
  }

  /** The error that fails a run whose commit reports more than {@code limit} results. */
  public static ReportStatus tooMany(String sha, int limit) {
    return new ReportStatus(
        sha,
        TOO_MANY,
        CommitState.ERROR,
        null,
        "CI reported more than " + limit + " checks; trainyard cannot tell whether all passed");
  }

  /** The context a check suite of {@code app} is recorded under. */
  public static String suiteContext(JsonNode app) {
    String slug = app.path("slug").asString("");
    return "check suite (" + (slug.isEmpty() ? "app " + app.path("id").asString("") : slug) + ")";
  }

  /**
   * A check run's or suite's state: pending until completed; then passing when GitHub's required
   * checks would count it as passing, an error when cancelled, else failing.
   */
  private static CommitState state(JsonNode check) {
    if (!check.path("status").asString("").equals("completed")) {
      return CommitState.PENDING;
    }
    String conclusion = check.path("conclusion").asString("");
    return GREEN.contains(conclusion)
        ? CommitState.SUCCESS
        : conclusion.equals("cancelled") ? CommitState.ERROR : CommitState.FAILURE;
  }

  /**
   * A commit status ({@code status} delivery, or an item of a commit's combined status) on {@code
   * sha}; empty for a state GitHub does not define.
   */
  public static Optional<ReportStatus> ofStatus(String sha, JsonNode status) {
    return ofStatus(sha, status, null);
  }

  /**
   * A commit status made by the Bot account of App {@code appId} (null: by a person, or not known),
   * which counts for a required check bound to that App.
   */
  public static Optional<ReportStatus> ofStatus(String sha, JsonNode status, Long appId) {
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
            text(status.path("description")),
            appId,
            null));
  }

  private static String text(JsonNode node) {
    return node.isString() ? node.asString() : null;
  }
}
