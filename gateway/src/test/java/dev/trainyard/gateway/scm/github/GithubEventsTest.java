package dev.trainyard.gateway.scm.github;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.CommitState;
import dev.trainyard.common.command.QueueCommand.ReportStatus;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.Priority;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.gateway.scm.github.GithubEvents.Intent;
import dev.trainyard.gateway.scm.github.GithubEvents.Routed;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What each kind of GitHub delivery asks of the queues, as a table. */
class GithubEventsTest {
  private static final String REPO =
      "\"installation\":{\"id\":42},\"repository\":{\"name\":\"rocket\",\"owner\":{\"login\":\"acme\"}}";
  private static final String SHA = "6113728f27ae82c7b1a177c8d03f9e96e0adf246";
  private static final long OWN_APP = 4242;
  private static final String ACTIONS = "{\"id\":15368,\"slug\":\"github-actions\"}";
  private static final String TEST_BRANCH = "\"head_branch\":\"trainyard-merge/main/r1\"";

  static Stream<Arguments> deliveries() {
    return Stream.of(
        Arguments.of("pull_request", "{\"action\":\"opened\"," + REPO + "}", List.of(refresh())),
        Arguments.of("push", "{" + REPO + "}", List.of(refresh())),
        Arguments.of("push", "{\"ref\":\"refs/heads/trainyard-merge/main/r1\"," + REPO + "}", null),
        Arguments.of(
            "push", "{\"ref\":\"refs/heads/trainyard-scratch/main/r1\"," + REPO + "}", null),
        Arguments.of(
            "pull_request",
            "{\"action\":\"labeled\",\"number\":7,\"label\":{\"name\":\"merge\"},"
                + "\"pull_request\":{\"base\":{\"ref\":\"main\"}},"
                + REPO
                + "}",
            List.of(refresh(), new Intent.Label(7, "main", "merge", true))),
        Arguments.of(
            "status",
            "{\"sha\":\""
                + SHA
                + "\",\"context\":\"ci/test\",\"state\":\"failure\","
                + "\"target_url\":\"https://ci/1\",\"description\":null,"
                + REPO
                + "}",
            List.of(
                new Intent.Status(
                    new ReportStatus(SHA, "ci/test", CommitState.FAILURE, "https://ci/1", null)))),
        Arguments.of(
            "branch_protection_rule",
            "{\"action\":\"edited\"," + REPO + "}",
            List.of(new Intent.Refresh(true))),
        Arguments.of(
            "repository_ruleset",
            "{\"action\":\"created\"," + REPO + "}",
            List.of(new Intent.Refresh(true))),
        Arguments.of(
            "check_run",
            checkRun("completed", "completed", "success")
                .replace("\"name\":\"build\"", "\"name\":\"build\",\"app\":{\"id\":15368}"),
            List.of(
                new Intent.Status(
                    new ReportStatus(
                        SHA, "build", CommitState.SUCCESS, "https://ci/run", "Build", 15368L)))),
        Arguments.of(
            "status",
            "{\"sha\":\""
                + SHA
                + "\",\"context\":\"Vercel\",\"state\":\"success\","
                + "\"target_url\":null,\"description\":null,"
                + "\"sender\":{\"login\":\"vercel[bot]\",\"type\":\"Bot\"},"
                + REPO
                + "}",
            List.of(
                new Intent.Status(
                    new ReportStatus(SHA, "Vercel", CommitState.SUCCESS, null, null),
                    "vercel[bot]"))),
        Arguments.of("status", "{\"sha\":\"" + SHA + "\",\"state\":\"weird\"," + REPO + "}", null),
        Arguments.of(
            "status",
            "{\"sha\":\""
                + SHA
                + "\",\"context\":\"ci\",\"state\":\"success\","
                + "\"branches\":[{\"name\":\"feature\"}],"
                + REPO
                + "}",
            null),
        Arguments.of(
            "check_run",
            checkRun("completed", "completed", "success")
                .replace(
                    "\"name\":\"build\"",
                    "\"name\":\"build\",\"check_suite\":{\"head_branch\":\"feature\"}"),
            null),
        Arguments.of(
            "check_run",
            checkRun("completed", "completed", "success")
                .replace(
                    "\"name\":\"build\"",
                    "\"name\":\"build\",\"check_suite\":{\"head_branch\":"
                        + "\"trainyard-merge/main/r1\"}"),
            List.of(status(CommitState.SUCCESS))),
        Arguments.of(
            "check_run", checkRun("created", "queued", null), List.of(status(CommitState.PENDING))),
        Arguments.of(
            "check_run",
            checkRun("completed", "completed", "success"),
            List.of(status(CommitState.SUCCESS))),
        Arguments.of(
            "check_run",
            checkRun("completed", "completed", "skipped"),
            List.of(status(CommitState.SUCCESS))),
        Arguments.of(
            "check_run",
            checkRun("completed", "completed", "timed_out"),
            List.of(status(CommitState.FAILURE))),
        Arguments.of(
            "check_run",
            checkRun("completed", "completed", "cancelled"),
            List.of(status(CommitState.ERROR))),
        Arguments.of("check_run", checkRun("rerequested", "completed", "failure"), null),
        Arguments.of(
            "check_run",
            checkRun("completed", "completed", "failure")
                .replace("\"build\"", "\"trainyard\",\"app\":{\"id\":" + OWN_APP + "}"),
            null),
        Arguments.of(
            "check_run",
            checkRun("completed", "completed", "failure")
                .replace("\"build\"", "\"trainyard\",\"app\":" + ACTIONS),
            List.of(
                new Intent.Status(
                    new ReportStatus(
                        SHA,
                        "trainyard",
                        CommitState.FAILURE,
                        "https://ci/run",
                        "Build",
                        15368L)))),
        Arguments.of(
            "check_run",
            checkRun("completed", "completed", "success")
                .replace(
                    "\"name\":\"build\"",
                    "\"name\":\"build\",\"app\":"
                        + ACTIONS
                        + ",\"check_suite\":{\"head_sha\":\""
                        + SHA
                        + "\",\"status\":\"in_progress\",\"conclusion\":null,"
                        + TEST_BRANCH
                        + ",\"app\":"
                        + ACTIONS
                        + "}"),
            List.of(
                new Intent.Status(
                    new ReportStatus(
                        SHA,
                        "check suite (github-actions)",
                        CommitState.PENDING,
                        null,
                        "check suite in_progress",
                        15368L)),
                new Intent.Status(
                    new ReportStatus(
                        SHA, "build", CommitState.SUCCESS, "https://ci/run", "Build", 15368L)))),
        Arguments.of(
            "check_suite",
            checkSuite(ACTIONS, 2),
            List.of(
                new Intent.Status(
                    new ReportStatus(
                        SHA,
                        "check suite (github-actions)",
                        CommitState.SUCCESS,
                        null,
                        "check suite completed",
                        15368L)))),
        Arguments.of("check_suite", checkSuite("{\"id\":" + OWN_APP + "}", 1), null),
        Arguments.of("check_suite", checkSuite(ACTIONS, 0), null),
        Arguments.of("check_suite", "{\"action\":\"completed\"," + REPO + "}", null),
        Arguments.of(
            "issue_comment",
            comment("/trainyard merge"),
            List.of(new Intent.Comment(7, "octo", true, null, null))),
        Arguments.of(
            "issue_comment",
            comment("/trainyard merge --priority=urgent --no-batch\\nplease"),
            List.of(new Intent.Comment(7, "octo", true, Priority.URGENT, true))),
        Arguments.of(
            "issue_comment",
            comment("/trainyard merge --priority=42"),
            List.of(new Intent.Comment(7, "octo", true, Priority.ofValue(42), null))),
        Arguments.of(
            "issue_comment",
            comment("  /trainyard cancel  "),
            List.of(new Intent.Comment(7, "octo", false, null, null))),
        Arguments.of(
            "issue_comment",
            comment("/trainyard merge")
                .replace(
                    "\"user\":{\"login\":\"octo\"}",
                    "\"user\":{\"login\":\"dependabot[bot]\",\"type\":\"Bot\"}"),
            List.of(new Intent.Comment(7, "dependabot[bot]", true, null, null, true))),
        Arguments.of(
            "pull_request",
            "{\"action\":\"labeled\",\"number\":7,\"label\":{\"name\":\"merge\"},"
                + "\"pull_request\":{\"base\":{\"ref\":\"main\"},\"head\":{\"sha\":\"abc\"}},"
                + "\"sender\":{\"login\":\"renovate[bot]\",\"type\":\"Bot\"},"
                + REPO
                + "}",
            List.of(
                refresh(),
                new Intent.Label(
                    7, "main", "merge", true, "renovate[bot]", "abc", "renovate[bot]"))),
        Arguments.of(
            "issue_comment",
            comment("/trainyard merge --priority=256"),
            List.of(ignored("`--priority=256` is no option of `/trainyard merge`"))),
        Arguments.of(
            "issue_comment",
            comment("/trainyard merge --force"),
            List.of(ignored("`--force` is no option of `/trainyard merge`"))),
        Arguments.of(
            "issue_comment",
            comment("/trainyard cancel now"),
            List.of(ignored("`/trainyard cancel` takes no options"))),
        Arguments.of(
            "issue_comment",
            comment("/trainyard land"),
            List.of(ignored("`land` is no trainyard command"))),
        Arguments.of("issue_comment", comment("LGTM /trainyard merge"), null),
        Arguments.of(
            "issue_comment", comment("/trainyard merge").replace("\"pull_request\":{},", ""), null),
        Arguments.of(
            "issue_comment",
            comment("/trainyard merge").replace("\"created\"", "\"edited\""),
            null),
        Arguments.of("star", "{\"action\":\"created\"," + REPO + "}", null),
        Arguments.of("pull_request", "{\"action\":\"opened\"}", null));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("deliveries")
  void aDeliveryAsksForItsIntents(String event, String payload, List<Intent> intents) {
    Routed routed =
        GithubEvents.read(event, Json.mapper().readTree(payload), "github.com", OWN_APP);
    if (intents == null) {
      assertThat(routed).isInstanceOf(Routed.Ignored.class);
    } else if (intents.get(0) instanceof Intent.Ignored expected) {
      Intent.Ignored read = (Intent.Ignored) ((Routed.Repository) routed).intents().get(0);
      assertThat(read.number()).isEqualTo(expected.number());
      assertThat(read.login()).isEqualTo(expected.login());
      assertThat(read.why()).startsWith(expected.why());
    } else {
      assertThat(routed)
          .isEqualTo(
              new Routed.Repository(42, new RepoRef("github.com", "acme", "rocket"), intents));
    }
  }

  @ParameterizedTest(name = "installation {0}")
  @MethodSource("installationActions")
  void installationsAreReadForTheirLifecycle(String action, boolean routed) {
    Routed read =
        GithubEvents.read(
            "installation",
            Json.mapper()
                .readTree(
                    "{\"action\":\""
                        + action
                        + "\",\"installation\":{\"id\":9,\"account\":{\"login\":\"octo\"}}}"),
            "github.com",
            OWN_APP);
    assertThat(read)
        .isEqualTo(routed ? new Routed.Installation(9, "octo", action) : read)
        .isInstanceOf(routed ? Routed.Installation.class : Routed.Ignored.class);
  }

  static Stream<Arguments> moves() {
    String rocket = "\"repository\":{\"id\":77,\"name\":\"rocket\",\"owner\":{\"login\":\"acme\"}}";
    return Stream.of(
        Arguments.of(
            "renamed",
            "\"changes\":{\"repository\":{\"name\":{\"from\":\"Hello-World\"}}}," + rocket,
            List.of("acme/Hello-World")),
        Arguments.of(
            "transferred",
            "\"changes\":{\"owner\":{\"from\":{\"user\":{\"login\":\"octocat\"}}}}," + rocket,
            List.of("octocat/rocket")),
        Arguments.of(
            "transferred",
            "\"changes\":{\"owner\":{\"from\":{\"organization\":{\"login\":\"octo-org\"}}}},"
                + rocket,
            List.of("octo-org/rocket")));
  }

  @ParameterizedTest(name = "repository {0}")
  @MethodSource("moves")
  void aRenamedOrTransferredRepositoryIsReadAgainWithTheNameItHad(
      String action, String body, List<String> former) {
    Routed read =
        GithubEvents.read(
            "repository",
            Json.mapper()
                .readTree(
                    "{\"action\":\"" + action + "\",\"installation\":{\"id\":42}," + body + "}"),
            "github.com",
            OWN_APP);
    assertThat(read)
        .isEqualTo(
            new Routed.Repository(
                42, new RepoRef("github.com", "acme", "rocket"), 77, former, List.of(refresh())));
  }

  @Test
  void repositoriesJoiningOrLeavingAnInstallationAreEachReadAgain() {
    Routed read =
        GithubEvents.read(
            "installation_repositories",
            Json.mapper()
                .readTree(
                    "{\"action\":\"added\",\"installation\":{\"id\":42},"
                        + "\"repositories_added\":[{\"id\":5,\"full_name\":\"acme/rocket\"}],"
                        + "\"repositories_removed\":[{\"id\":6,\"full_name\":\"acme/probe\"}]}"),
            "github.com",
            OWN_APP);
    assertThat(read)
        .isEqualTo(
            new Routed.Repositories(
                List.of(
                    new Routed.Repository(
                        42,
                        new RepoRef("github.com", "acme", "rocket"),
                        5,
                        List.of(),
                        List.of(refresh())),
                    new Routed.Repository(
                        42,
                        new RepoRef("github.com", "acme", "probe"),
                        6,
                        List.of(),
                        List.of(refresh())))));
  }

  static Stream<Arguments> installationActions() {
    return Stream.of(
        Arguments.of("created", true),
        Arguments.of("deleted", true),
        Arguments.of("suspend", true),
        Arguments.of("unsuspend", true),
        Arguments.of("new_permissions_accepted", false));
  }

  private static Intent refresh() {
    return new Intent.Refresh(false);
  }

  /** An ignored comment of octo on PR 7 whose reason starts with {@code why}. */
  private static Intent ignored(String why) {
    return new Intent.Ignored(7, "octo", why);
  }

  private static Intent status(CommitState state) {
    return new Intent.Status(new ReportStatus(SHA, "build", state, "https://ci/run", "Build"));
  }

  /** A comment {@code body} by octo on PR 7 (an issue with a {@code pull_request}). */
  private static String comment(String body) {
    return "{\"action\":\"created\",\"issue\":{\"number\":7,\"pull_request\":{},\"title\":\"x\"},"
        + "\"comment\":{\"body\":\""
        + body
        + "\",\"user\":{\"login\":\"octo\"}},"
        + REPO
        + "}";
  }

  /** App {@code app}'s suite with {@code runs} runs completed on a test branch. */
  private static String checkSuite(String app, int runs) {
    return "{\"action\":\"completed\",\"check_suite\":{\"head_sha\":\""
        + SHA
        + "\",\"status\":\"completed\",\"conclusion\":\"success\","
        + TEST_BRANCH
        + ",\"latest_check_runs_count\":"
        + runs
        + ",\"app\":"
        + app
        + "},"
        + REPO
        + "}";
  }

  private static String checkRun(String action, String status, String conclusion) {
    return "{\"action\":\""
        + action
        + "\",\"check_run\":{\"name\":\"build\",\"head_sha\":\""
        + SHA
        + "\",\"status\":\""
        + status
        + "\",\"conclusion\":"
        + (conclusion == null ? "null" : "\"" + conclusion + "\"")
        + ",\"details_url\":\"https://ci/run\",\"output\":{\"title\":\"Build\"}},"
        + REPO
        + "}";
  }
}
