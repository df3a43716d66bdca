package dev.trainyard.gateway.scm.github;

import dev.trainyard.common.command.QueueCommand.ReportStatus;
import dev.trainyard.common.github.CheckReports;
import dev.trainyard.common.queue.Priority;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.common.queue.TestBranches;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Reads a GitHub App webhook delivery (API.md §6 "The GitHub App adapter") into what it asks of
 * trainyard, without acting on it: an installation that changed, or changes to one repository's
 * pull requests, statuses and labels for the queues on it. Pure, so every published example can be
 * checked against it.
 */
public final class GithubEvents {
  /** The check run trainyard writes on each PR: never a CI result. */
  public static final String OWN_CHECK_RUN = "trainyard";

  private GithubEvents() {}

  /** What one delivery asks. */
  public sealed interface Routed {
    /** Nothing trainyard acts on (another event type or action); {@code why} for the log. */
    record Ignored(String why) implements Routed {}

    /** An installation was created, deleted, suspended or unsuspended. */
    record Installation(long id, String account, String action) implements Routed {}

    /**
     * Changes for the queues of {@code repo} that installation {@code installationId} serves;
     * {@code repositoryId} is GitHub's id of the repository (0: not given), {@code formerNames} the
     * names a rename or transfer took from it ({@code owner/name}).
     */
    record Repository(
        long installationId,
        RepoRef repo,
        long repositoryId,
        List<String> formerNames,
        List<Intent> intents)
        implements Routed {
      public Repository(long installationId, RepoRef repo, List<Intent> intents) {
        this(installationId, repo, 0, List.of(), intents);
      }
    }

    /** Repositories joined or left an installation: each one's queues read their PRs again. */
    record Repositories(List<Repository> each) implements Routed {}
  }

  /** One change for the queues of a repository. */
  public sealed interface Intent {
    /**
     * Pull requests or branches changed: re-read them from GitHub, and the branches' required
     * checks too when {@code checksChanged} (protection or a ruleset changed).
     */
    record Refresh(boolean checksChanged) implements Intent {}

    /**
     * A CI result for a commit (a commit status, or a check run by its name and app); {@code bot}:
     * the Bot account that made a commit status, whose App it counts for once GitHub names it.
     */
    record Status(ReportStatus report, String bot) implements Intent {
      public Status(ReportStatus report) {
        this(report, null);
      }
    }

    /**
     * {@code label} was added to (or removed from) PR {@code number} whose base is {@code base} by
     * {@code sender} (a login); {@code bot}: the login of the Bot account that did it (null for a
     * person, whose write access GitHub is asked for as for a comment); {@code headSha}: the PR's
     * head when it was labeled.
     */
    record Label(
        long number,
        String base,
        String label,
        boolean added,
        String bot,
        String headSha,
        String sender)
        implements Intent {
      public Label(long number, String base, String label, boolean added) {
        this(number, base, label, added, null, null, "");
      }
    }

    /**
     * {@code login} commented {@code /trainyard merge} ({@code submit}, with its options) or {@code
     * /trainyard cancel} on PR {@code number}; whether they may is for GitHub to say.
     */
    record Comment(
        long number, String login, boolean submit, Priority priority, Boolean noBatch, boolean bot)
        implements Intent {
      public Comment(
          long number, String login, boolean submit, Priority priority, Boolean noBatch) {
        this(number, login, submit, priority, noBatch, false);
      }
    }

    /**
     * A comment command for the queues of branch {@code base}: from a user with write access, or
     * from the Bot account {@code bot}, which only queues listing it in {@code
     * allowedBotSubmitters} obey. {@code headSha}: the PR's head when GitHub was asked.
     */
    record Command(
        long number,
        String base,
        boolean submit,
        Priority priority,
        Boolean noBatch,
        String bot,
        String headSha,
        String login)
        implements Intent {
      public Command(long number, String base, boolean submit, Priority priority, Boolean noBatch) {
        this(number, base, submit, priority, noBatch, null, null, null);
      }
    }

    /**
     * A {@code /trainyard} comment by {@code login} on PR {@code number} that trainyard does not
     * act on, and {@code why}: an unknown word or option, or an author who may not command it. The
     * author is told so in a reply.
     */
    record Ignored(long number, String login, String why) implements Intent {}
  }

  /**
   * @param event the {@code X-GitHub-Event} header
   * @param host the {@code repo.host} the App serves ({@code TRAINYARD_GITHUB_HOST})
   * @param ownApp the App's id ({@code TRAINYARD_GITHUB_APP_ID} when it is numeric; null when it is
   *     a client id): its own check run and suite are never CI results; another App's check named
   *     {@code trainyard} is
   */
  public static Routed read(String event, JsonNode payload, String host, Long ownApp) {
    String action = payload.path("action").asString("");
    if (event.equals("installation")) {
      JsonNode installation = payload.path("installation");
      return Set.of("created", "deleted", "suspend", "unsuspend").contains(action)
          ? new Routed.Installation(
              installation.path("id").asLong(),
              installation.path("account").path("login").asString(""),
              action)
          : new Routed.Ignored("installation " + action);
    }
    if (event.equals("installation_repositories")) {
      return installationRepositories(payload, host);
    }
    List<Intent> intents = intents(event, action, payload, ownApp);
    if (intents.isEmpty()) {
      return new Routed.Ignored(event + (action.isEmpty() ? "" : " " + action));
    }
    JsonNode installation = payload.path("installation").path("id");
    JsonNode repository = payload.path("repository");
    if (!installation.isNumber() || repository.isMissingNode()) {
      return new Routed.Ignored(event + " without an installation or a repository");
    }
    return new Routed.Repository(
        installation.asLong(),
        new RepoRef(
            host,
            repository.path("owner").path("login").asString(""),
            repository.path("name").asString("")),
        repository.path("id").asLong(0),
        formerNames(action, payload),
        intents);
  }

  /**
   * The name a {@code repository} {@code renamed} or {@code transferred} delivery says the
   * repository had: the old name with the owner, or the owner it came from with the name.
   */
  private static List<String> formerNames(String action, JsonNode payload) {
    JsonNode changes = payload.path("changes");
    JsonNode repository = payload.path("repository");
    String owner = repository.path("owner").path("login").asString("");
    String name = repository.path("name").asString("");
    if (action.equals("renamed")
        && changes.path("repository").path("name").path("from").isString()) {
      return List.of(owner + "/" + changes.path("repository").path("name").path("from").asString());
    }
    JsonNode from = changes.path("owner").path("from");
    JsonNode login =
        from.has("organization")
            ? from.path("organization").path("login")
            : from.path("user").path("login");
    if (action.equals("transferred") && login.isString()) {
      return List.of(login.asString() + "/" + name);
    }
    return List.of();
  }

  /** Each repository added to or removed from an installation, to be read again. */
  private static Routed installationRepositories(JsonNode payload, String host) {
    JsonNode installation = payload.path("installation").path("id");
    List<Routed.Repository> each = new java.util.ArrayList<>();
    for (String list : List.of("repositories_added", "repositories_removed")) {
      for (JsonNode repository : payload.path(list)) {
        String[] name = repository.path("full_name").asString("").split("/", 2);
        if (installation.isNumber() && name.length == 2) {
          each.add(
              new Routed.Repository(
                  installation.asLong(),
                  new RepoRef(host, name[0], name[1]),
                  repository.path("id").asLong(0),
                  List.of(),
                  List.of(new Intent.Refresh(false))));
        }
      }
    }
    return each.isEmpty()
        ? new Routed.Ignored("installation_repositories without repositories")
        : new Routed.Repositories(each);
  }

  private static List<Intent> intents(String event, String action, JsonNode payload, Long ownApp) {
    return switch (event) {
      case "pull_request" -> pullRequest(action, payload);
      case "push" ->
          // trainyard's own test and scratch branches: nothing for a queue to read again
          TestBranches.isOwn(payload.path("ref").asString(""))
              ? List.of()
              : List.of(new Intent.Refresh(false));
      case "pull_request_review" -> List.of(new Intent.Refresh(false));
      case "repository" ->
          action.equals("renamed") || action.equals("transferred")
              ? List.of(new Intent.Refresh(false))
              : List.of();
      case "branch_protection_rule", "repository_ruleset" -> List.of(new Intent.Refresh(true));
      case "status" -> status(payload);
      case "check_run" -> checkRun(action, payload.path("check_run"), ownApp);
      case "check_suite" -> checkSuite(action, payload.path("check_suite"), ownApp);
      case "issue_comment" -> action.equals("created") ? comment(payload) : List.of();
      default -> List.of();
    };
  }

  private static List<Intent> status(JsonNode payload) {
    List<String> branches = new java.util.ArrayList<>();
    payload.path("branches").forEach(b -> branches.add(b.path("name").asString("")));
    if (!concernsTestBranches(branches)) {
      return List.of();
    }
    return CheckReports.ofStatus(payload.path("sha").asString(""), payload)
        .<List<Intent>>map(r -> List.of(new Intent.Status(r, bot(payload.path("sender")))))
        .orElse(List.of());
  }

  /**
   * Whether a result can concern a test run: its commit is on one of trainyard's branches, or
   * GitHub does not say which branches hold it. A status of a PR's own head, say, is no run's and
   * would only fill the queue's log (a busy repository's CI reports hundreds an hour).
   */
  private static boolean concernsTestBranches(List<String> branches) {
    return branches.isEmpty() || branches.stream().anyMatch(TestBranches::isOwn);
  }

  private static List<Intent> pullRequest(String action, JsonNode payload) {
    if (action.equals("labeled") || action.equals("unlabeled")) {
      return List.of(
          new Intent.Refresh(false),
          new Intent.Label(
              payload.path("number").asLong(),
              payload.path("pull_request").path("base").path("ref").asString(""),
              payload.path("label").path("name").asString(""),
              action.equals("labeled"),
              bot(payload.path("sender")),
              text(payload.path("pull_request").path("head").path("sha")),
              payload.path("sender").path("login").asString("")));
    }
    return List.of(new Intent.Refresh(false));
  }

  /**
   * A check run started or completed: its result, after its suite's state (a suite in progress
   * holds a verdict that counts every reported check, and must be recorded before the run's success
   * could conclude it).
   */
  private static List<Intent> checkRun(String action, JsonNode run, Long ownApp) {
    boolean own =
        run.path("name").asString("").equals(OWN_CHECK_RUN) && ownApp(run.path("app"), ownApp);
    if (own || !(action.equals("created") || action.equals("completed"))) {
      return List.of();
    }
    JsonNode suite = run.path("check_suite");
    if (!onTestBranch(suite)) {
      return List.of();
    }
    List<Intent> intents = new java.util.ArrayList<>();
    JsonNode suiteApp = suite.has("app") ? suite.path("app") : run.path("app");
    CheckReports.ofCheckSuite(suite, suiteApp).ifPresent(r -> intents.add(new Intent.Status(r)));
    intents.add(new Intent.Status(CheckReports.ofCheckRun(run)));
    return intents;
  }

  /** Another App's check suite completed (its runs may all have been reported before). */
  private static List<Intent> checkSuite(String action, JsonNode suite, Long ownApp) {
    JsonNode app = suite.path("app");
    if (!action.equals("completed") || (ownApp != null && ownApp(app, ownApp))) {
      return List.of();
    }
    return onTestBranch(suite)
        ? CheckReports.ofCheckSuite(suite, app)
            .<List<Intent>>map(r -> List.of(new Intent.Status(r)))
            .orElse(List.of())
        : List.of();
  }

  /** Whether {@code app} is trainyard's own App (any, when its id is not known). */
  private static boolean ownApp(JsonNode app, Long ownApp) {
    return ownApp == null || (app.path("id").isNumber() && app.path("id").asLong() == ownApp);
  }

  /** Whether a suite's head branch is one of trainyard's, or GitHub does not name it. */
  private static boolean onTestBranch(JsonNode suite) {
    JsonNode branch = suite.path("head_branch");
    return !branch.isString() || concernsTestBranches(List.of(branch.asString()));
  }

  /**
   * A comment command on a pull request (API.md §6): its first line is {@code /trainyard merge},
   * optionally with {@code --priority=urgent|high|medium|low|0..255} and {@code --no-batch}, or
   * {@code /trainyard cancel}. Anything else, or an unknown option, is no command.
   */
  private static List<Intent> comment(JsonNode payload) {
    JsonNode issue = payload.path("issue");
    if (!issue.has("pull_request")) {
      return List.of();
    }
    String body = payload.path("comment").path("body").asString("").strip();
    String[] words = body.lines().findFirst().orElse("").strip().split("\\s+");
    if (words.length < 2 || !words[0].equals("/trainyard")) {
      return List.of();
    }
    long number = issue.path("number").asLong();
    JsonNode user = payload.path("comment").path("user");
    String login = user.path("login").asString("");
    boolean bot = bot(user) != null;
    if (words[1].equals("cancel")) {
      return List.of(
          words.length == 2
              ? new Intent.Comment(number, login, false, null, null, bot)
              : new Intent.Ignored(number, login, "`/trainyard cancel` takes no options"));
    }
    if (!words[1].equals("merge")) {
      return List.of(
          new Intent.Ignored(
              number,
              login,
              "`"
                  + words[1]
                  + "` is no trainyard command; the commands are `/trainyard merge`"
                  + " (with `--priority=urgent|high|medium|low|0..255` and `--no-batch`) and"
                  + " `/trainyard cancel`"));
    }
    Priority priority = null;
    Boolean noBatch = null;
    for (int i = 2; i < words.length; i++) {
      if (words[i].equals("--no-batch")) {
        noBatch = true;
      } else if (words[i].startsWith("--priority=")
          && priority(words[i].substring("--priority=".length())) != null) {
        priority = priority(words[i].substring("--priority=".length()));
      } else {
        return List.of(
            new Intent.Ignored(
                number,
                login,
                "`"
                    + words[i]
                    + "` is no option of `/trainyard merge`; it takes"
                    + " `--priority=urgent|high|medium|low|0..255` and `--no-batch`"));
      }
    }
    return List.of(new Intent.Comment(number, login, true, priority, noBatch, bot));
  }

  /** The login of {@code account} when GitHub says it is a Bot ({@code type: Bot}), else null. */
  private static String bot(JsonNode account) {
    return account.path("type").asString("").equals("Bot")
        ? account.path("login").asString("")
        : null;
  }

  private static Priority priority(String text) {
    if (text.matches("\\d{1,3}") && Integer.parseInt(text) <= Priority.MAX_VALUE) {
      return Priority.ofValue(Integer.parseInt(text));
    }
    return Priority.named(text).orElse(null);
  }

  private static String text(JsonNode node) {
    return node.isString() ? node.asString() : null;
  }
}
