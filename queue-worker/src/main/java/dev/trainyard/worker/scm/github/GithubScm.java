package dev.trainyard.worker.scm.github;

import dev.trainyard.common.command.QueueCommand.RecordRequiredChecks;
import dev.trainyard.common.command.QueueCommand.ReportStatus;
import dev.trainyard.common.command.QueueCommand.SubmitPullRequest;
import dev.trainyard.common.github.AppIds;
import dev.trainyard.common.github.GithubClient;
import dev.trainyard.common.github.GithubClient.Answer;
import dev.trainyard.common.github.GithubException;
import dev.trainyard.common.github.GithubInstallation;
import dev.trainyard.common.queue.DependsOnLines;
import dev.trainyard.common.queue.MergeMethod;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.worker.scm.CommitMessages;
import dev.trainyard.worker.scm.MergeResult;
import dev.trainyard.worker.scm.PullRequestHead;
import dev.trainyard.worker.scm.PullRequestUnreadable;
import dev.trainyard.worker.scm.ScmProvider;
import dev.trainyard.worker.scm.ScmPullRequest;
import dev.trainyard.worker.scm.ScmRefused;
import dev.trainyard.worker.scm.TestBranchResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;

/**
 * The {@link ScmProvider} of repositories on GitHub (API.md §6 "The GitHub App adapter"), through
 * the App's installation on each repository. Organization O reaches a repository only through an
 * installation bound to O; otherwise every call fails with the sentence its queue shows as the
 * reason its PRs are not ready. This class reads pull requests and holds what the parts share (the
 * installation, the {@link WriteBudget}, one sentence per refusal); the parts do the rest: {@link
 * GithubTestBranches} builds test branches, {@link GithubLanding} lands runs, {@link GithubReports}
 * reads CI's results, {@link GithubShowing} shows the queue on PRs, {@link BranchRules} reads the
 * required checks and {@link ReviewDecisions} the reviews.
 */
public final class GithubScm implements ScmProvider {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(GithubScm.class);
  static final Duration INSTALLATION_FRESH = Duration.ofSeconds(30);

  /** The check run trainyard keeps on every queued PR's head. */
  public static final String CHECK_NAME = "trainyard";

  /** GitHub's documented secondary limit on content-creating requests. */
  public static final int DEFAULT_WRITES_PER_MINUTE = 80;

  public static final int DEFAULT_WRITES_PER_HOUR = 500;

  private final WriteBudget budget;

  /**
   * Refusals the same call meets again until a person acts: invalid, forbidden (a rate limit is
   * told apart before this: the client pauses and answers it otherwise), not found, gone.
   */
  private static final Set<Integer> PERMANENT = Set.of(400, 403, 404, 410, 422);

  private final GithubClient github;
  private final String host;
  private final GithubBindings bindings;
  private final InstantSource clock;
  private final Map<String, Looked> installations = new ConcurrentHashMap<>();
  private final BranchRules rules;
  private final RepositoryCalls calls = this::call;
  private final GithubLanding landing;
  private final GithubTestBranches testBranches = new GithubTestBranches(calls);
  private final GithubReports reports;
  private final GithubShowing showing;
  private final ReviewDecisions reviews;

  /** The installation GitHub named for a repository (null: none), and when it was asked. */
  private record Looked(Long installation, Instant at) {}

  /**
   * @param host the {@code repo.host} this App serves ({@code TRAINYARD_GITHUB_HOST})
   */
  public GithubScm(GithubClient github, String host, GithubBindings bindings, InstantSource clock) {
    this(github, host, bindings, clock, DEFAULT_WRITES_PER_MINUTE, DEFAULT_WRITES_PER_HOUR);
  }

  /**
   * @param writesPerMinute this worker's GitHub writes a minute per installation ({@code
   *     TRAINYARD_GITHUB_WRITES_PER_MINUTE}, see {@link WriteBudget})
   * @param writesPerHour the same an hour ({@code TRAINYARD_GITHUB_WRITES_PER_HOUR})
   */
  public GithubScm(
      GithubClient github,
      String host,
      GithubBindings bindings,
      InstantSource clock,
      int writesPerMinute,
      int writesPerHour) {
    this.budget = new WriteBudget(writesPerMinute, writesPerHour, clock);
    this.github = github;
    this.host = host;
    this.bindings = bindings;
    this.clock = clock;
    this.rules =
        new BranchRules((repo, path, expected) -> call(repo, "GET", path, null, expected), clock);
    this.reviews = new ReviewDecisions((repo, query, variables) -> asked(repo, query, variables));
    this.landing = new GithubLanding(calls, reviews, GithubClient.Sleeper.THREAD);
    this.reports =
        new GithubReports(
            calls, github::appId, new AppIds(path -> github.asApp("GET", path, null), clock));
    this.showing = new GithubShowing(calls, github::appId, this::affordable);
  }

  @Override
  public boolean serves(OrgRepo repo) {
    return repo.repo().host().equalsIgnoreCase(host);
  }

  /** GitHub never deletes a PR: one it does not show open is closed. */
  @Override
  public boolean emptyMeansClosed(OrgRepo repo) {
    return true;
  }

  /** Checks that the App may serve {@code repo} to its organization now. */
  @Override
  public void fetch(OrgRepo repo) {
    installation(repo);
  }

  /**
   * Forgets that the App was not installed on {@code repo}: a delivery for it (the repository added
   * to the installation again) is read with the installation GitHub shows now, not after {@link
   * #INSTALLATION_FRESH}. A known installation is kept: deliveries come with every push and status.
   */
  @Override
  public void hostChanged(OrgRepo repo) {
    if (!serves(repo)) { // the router tells every adapter; the slug alone names no host
      return;
    }
    installations.computeIfPresent(
        repo.repo().slug(), (slug, looked) -> looked.installation() == null ? null : looked);
  }

  /**
   * The PR while it is open; empty once GitHub shows it closed. A 404 is not "closed": GitHub
   * cannot delete a pull request, so either the repository left the installation (the queue's
   * source problem) or GitHub could not answer for this one PR now ({@link PullRequestUnreadable}).
   */
  @Override
  public Optional<ScmPullRequest> pullRequest(OrgRepo repo, long number, String targetBranch) {
    Answer answer = call(repo, "GET", "/pulls/" + number, null, 200, 404);
    JsonNode pr = answer.body();
    if (answer.status() == 404) {
      Answer repository = call(repo, "GET", "", null, 200, 403, 404);
      if (repository.status() != 200) {
        installations.remove(repo.repo().slug());
        throw unreachable(
            "GitHub does not show "
                + repo.repo().slug()
                + " to the App's installation (HTTP "
                + repository.status()
                + "): was the repository removed from it?");
      }
      throw new PullRequestUnreadable(
          "GitHub answered 404 for pull request #" + number + " of " + repo.repo().slug());
    }
    if (!pr.path("state").asString("").equals("open")) {
      return Optional.empty();
    }
    return Optional.of(
        new ScmPullRequest(
            number,
            pr.path("head").path("sha").asString(),
            headBranch(pr),
            pr.path("base").path("ref").asString(targetBranch),
            pr.path("title").asString(""),
            pr.path("user").path("login").asString(""),
            mergeability(pr),
            hold(repo, number, pr),
            DependsOnLines.parse(pr.path("body").asString(""), SubmitPullRequest.MAX_DEPENDS_ON),
            stackedOn(
                repo, number, pr.path("base").path("ref").asString(targetBranch), targetBranch)));
  }

  /**
   * The PR of this repository whose head branch is {@code base} (PR {@code number} is stacked on
   * it): the open one, else the newest one GitHub merged (a stacked PR stays stacked on the PR
   * below once that lands, until it is retargeted), asked only of a PR based on another branch than
   * the queue's: {@code GET /pulls?state=all&head=owner:base}. Null when none has that head.
   */
  private Long stackedOn(OrgRepo repo, long number, String base, String targetBranch) {
    if (base.equals(targetBranch)) {
      return null;
    }
    String head = URLEncoder.encode(repo.repo().owner() + ":" + base, StandardCharsets.UTF_8);
    JsonNode listed = call(repo, "GET", "/pulls?state=all&head=" + head, null, 200).body();
    Long merged = null;
    for (JsonNode pr : listed) {
      long below = pr.path("number").asLong(0);
      if (below <= 0 || below == number) {
        continue;
      }
      if (pr.path("state").asString("").equals("open")) {
        return below;
      }
      if (merged == null && !pr.path("merged_at").isNull() && pr.has("merged_at")) {
        merged = below; // newest first, as GitHub lists them
      }
    }
    return merged;
  }

  /** GitHub's own answer for PR {@code number}: merged, open (on its base), or closed. */
  @Override
  public Optional<dev.trainyard.common.command.HostDependency> dependency(
      OrgRepo repo, long number, String targetBranch) {
    Answer answer = call(repo, "GET", "/pulls/" + number, null, 200, 404);
    if (answer.status() != 200) {
      return Optional.empty();
    }
    JsonNode pr = answer.body();
    return Optional.of(
        new dev.trainyard.common.command.HostDependency(
            number,
            pr.path("merged").asBoolean(false),
            pr.path("state").asString("").equals("open"),
            pr.path("base").path("ref").asString(null)));
  }

  /**
   * The PR's head branch: its name in the repository, or {@code owner:name} ({@code head.label})
   * for a fork, since forks' branches share names ({@code patch-1}, {@code main}).
   */
  static String headBranch(JsonNode pr) {
    JsonNode head = pr.path("head");
    String own = pr.path("base").path("repo").path("full_name").asString("");
    String from = head.path("repo").path("full_name").asString(own);
    return from.equalsIgnoreCase(own)
        ? head.path("ref").asString()
        : head.path("label").asString(head.path("ref").asString());
  }

  /**
   * What holds a PR GitHub could merge: a draft, or a review branch protection requires ({@code
   * mergeable_state} {@code blocked} with a {@link ReviewDecisions review decision} that blocks).
   * GitHub also blocks a PR whose head lacks a required check: when the reviews are not what blocks
   * it, the checks are, and those are the queue's to run on its own branch (CI that runs only on
   * trainyard's branches), so the PR is not held. While GitHub cannot say which, it is.
   */
  private String hold(OrgRepo repo, long number, JsonNode pr) {
    String hold = hold(pr);
    if (hold == null || !pr.path("mergeable_state").asString("").equals("blocked")) {
      return hold;
    }
    // asked again when GitHub shows the PR changed (a review changes its updated_at), or after
    // DECISION_FRESH: a PR blocked for hours is read every poll round, GraphQL has no 304
    String key = repo.repo().slug() + "#" + number + "@" + pr.path("updated_at").asString("");
    Decided known = decided.get(key);
    String decision;
    if (known != null && known.at().plus(DECISION_FRESH).isAfter(clock.instant())) {
      decision = known.decision();
    } else {
      decision = reviews.of(repo, List.of(number)).get(number);
      if (decision != null) {
        if (decided.size() > MAX_DECIDED) {
          decided.clear();
        }
        decided.put(key, new Decided(decision, clock.instant()));
      }
    }
    return decision == null ? hold : ReviewDecisions.blocking(decision);
  }

  /** How long a blocked PR's review decision is taken while GitHub shows the PR unchanged. */
  static final Duration DECISION_FRESH = Duration.ofMinutes(10);

  private static final int MAX_DECIDED = 10_000;

  private record Decided(String decision, Instant at) {}

  private final Map<String, Decided> decided = new ConcurrentHashMap<>();

  /**
   * What holds a PR GitHub could merge, from the PR alone: a draft, or branch protection ({@code
   * mergeable_state} {@code blocked}: a review or a check it requires). Its own outcome, not a
   * conflict: the PR waits, not ready, and comes back when GitHub lets it go.
   */
  static String hold(JsonNode pr) {
    if (pr.path("draft").asBoolean(false)
        || pr.path("mergeable_state").asString("").equals("draft")) {
      return "it is a draft pull request";
    }
    if (pr.path("mergeable_state").asString("").equals("blocked")) {
      return "GitHub blocks merging it (mergeable_state: blocked): a review or a check its branch"
          + " protection requires is missing";
    }
    return null;
  }

  /**
   * GitHub reports a PR's mergeability with the PR ({@link #pullRequest}): {@code mergeable} null
   * while it computes it, false on a conflict ({@code dirty}). What else holds it (drafts,
   * protection: {@code blocked}) is its {@link #hold}. A base that moved on ({@code behind}) is no
   * obstacle: trainyard merges onto the current target itself.
   */
  static Mergeability mergeability(JsonNode pr) {
    JsonNode mergeable = pr.path("mergeable");
    String state = pr.path("mergeable_state").asString("unknown");
    if (mergeable.isNull() || mergeable.isMissingNode() || state.equals("unknown")) {
      return Mergeability.IN_PROGRESS;
    }
    if (!mergeable.asBoolean() || state.equals("dirty")) {
      return Mergeability.NOT_MERGEABLE;
    }
    return Mergeability.MERGEABLE;
  }

  /** Never asked: GitHub's mergeability comes with the PR. */
  @Override
  public Mergeability mergeability(OrgRepo repo, String targetBranch, String headSha) {
    return Mergeability.UNSPECIFIED;
  }

  @Override
  public TestBranchResult buildTestBranch(
      OrgRepo repo,
      String targetBranch,
      String branch,
      String baseSha,
      List<PullRequestHead> prs,
      Instant at,
      CommitMessages messages) {
    return testBranches.build(repo, targetBranch, branch, baseSha, prs, messages);
  }

  @Override
  public MergeResult merge(
      OrgRepo repo,
      String targetBranch,
      String expectedTargetSha,
      String builtOnSha,
      String testedSha,
      MergeMethod method,
      List<PullRequestHead> prs,
      CommitMessages messages) {
    return landing.merge(
        repo, targetBranch, expectedTargetSha, builtOnSha, testedSha, method, prs, messages);
  }

  @Override
  public Optional<String> landing(
      OrgRepo repo,
      String targetBranch,
      String expectedTargetSha,
      String testedSha,
      List<PullRequestHead> prs) {
    return branchHead(repo, targetBranch)
        .filter(head -> !head.equals(expectedTargetSha))
        .filter(head -> landing.landed(repo, head, testedSha, prs));
  }

  @Override
  public void deleteBranch(OrgRepo repo, String branch) {
    testBranches.delete(repo, branch);
  }

  /** GitHub's compare: the PR's head is {@code ahead} of the target's (or the same commit). */
  @Override
  public Optional<String> containedTarget(OrgRepo repo, String targetBranch, String headSha) {
    return branchHead(repo, targetBranch)
        .filter(
            target -> {
              Answer compared =
                  call(repo, "GET", "/compare/" + target + "..." + headSha, null, 200, 404);
              String status = compared.body().path("status").asString("");
              return compared.status() == 200
                  && (status.equals("ahead") || status.equals("identical"));
            });
  }

  @Override
  public Optional<String> branchHead(OrgRepo repo, String branch) {
    return calls.branchHead(repo, branch);
  }

  /**
   * Shows {@code check} as the {@code trainyard} check run on commit {@code sha} ({@link
   * GithubShowing}); answers the run's id.
   */
  public long publishCheck(OrgRepo repo, String sha, Long id, CheckOutput check) {
    return showing.publishCheck(repo, sha, id, check);
  }

  /**
   * What the {@code trainyard} check run shows; {@code conclusion} null while the PR is queued;
   * {@code detailsUrl} the PR's page in trainyard.
   */
  public record CheckOutput(String title, String summary, String conclusion, String detailsUrl) {}

  /** Gives PR {@code number} exactly one {@code trainyard:*} label, {@code label} (null: none). */
  public void stateLabel(OrgRepo repo, long number, String label) {
    showing.stateLabel(repo, number, label);
  }

  /** Comments {@code body} on PR {@code number} unless a comment there carries {@code marker}. */
  public void commentOnce(OrgRepo repo, long number, String marker, String body) {
    showing.commentOnce(repo, number, marker, body);
  }

  /**
   * {@code heads/<branch>} as a URL path: each segment percent-encoded, since a git branch name may
   * hold {@code #}, {@code %} or {@code ?}, which would otherwise end the path or be decoded into
   * another branch's name ({@code main#x} read as {@code main}).
   */
  static String heads(String branch) {
    return "heads/" + GithubClient.segments(branch);
  }

  @Override
  public Optional<Long> openTestPullRequest(
      OrgRepo repo, String targetBranch, String branch, List<PullRequestHead> prs) {
    return testBranches.openPullRequest(repo, targetBranch, branch, prs);
  }

  @Override
  public void closeTestPullRequest(OrgRepo repo, long number) {
    testBranches.closePullRequest(repo, number);
  }

  @Override
  public Optional<RecordRequiredChecks> requiredChecks(OrgRepo repo, String branch, boolean fresh) {
    return Optional.of(rules.read(repo, branch, fresh));
  }

  /**
   * What CI reported on commit {@code sha} ({@link GithubReports}): every check run and check suite
   * with runs but trainyard's own, and the newest commit status of each context.
   */
  public List<ReportStatus> reports(OrgRepo repo, String sha) {
    return reports.of(repo, sha);
  }

  /**
   * Fails with {@link WriteBudget.Spent} before the reads a showing write needs (its check run,
   * comments or labels), when the write itself would be refused: a refused write tried again later
   * would otherwise read them again each time.
   */
  private void affordable(OrgRepo repo) {
    budget.check(installation(repo), WriteBudget.Lane.SHOWING);
  }

  /**
   * A call on {@code repo} as its installation; a status outside {@code expected} fails with one
   * sentence (the reason the queue shows).
   */
  private Answer call(OrgRepo repo, String method, String path, Object body, int... expected) {
    long installation = installation(repo);
    String full = "/repos/" + repo.repo().owner() + "/" + repo.repo().name() + path;
    if (!method.equals("GET")) {
      budget.take(installation, WriteBudget.lane(method, full));
    }
    Answer answer;
    try {
      answer = github.as(installation, method, full, body);
    } catch (GithubException e) {
      installations.remove(repo.repo().slug()); // no token: removed or suspended, ask GitHub again
      throw unreachable(e.getMessage());
    }
    for (int status : expected) {
      if (answer.status() == status) {
        return answer;
      }
    }
    if (answer.status() == 401 || answer.status() == 404) {
      installations.remove(repo.repo().slug()); // removed or moved: ask GitHub again
    }
    String sentence =
        "GitHub refused "
            + method
            + " "
            + full
            + " (HTTP "
            + answer.status()
            + "): "
            + answer.message()
            + (answer.status() == 403
                ? "; the App needs read and write access to contents, pull requests and checks"
                : "");
    throw PERMANENT.contains(answer.status()) ? new ScmRefused(sentence) : unreachable(sentence);
  }

  /** A GraphQL query as the installation serving {@code repo}. */
  private Answer asked(OrgRepo repo, String query, Map<String, Object> variables) {
    long installation = installation(repo);
    try {
      return github.graphql(installation, query, variables);
    } catch (GithubException e) {
      throw unreachable(e.getMessage());
    }
  }

  /**
   * The installation that serves {@code repo} to its organization.
   *
   * @throws UncheckedIOException with the sentence saying why none does
   */
  private long installation(OrgRepo repo) {
    String slug = repo.repo().slug();
    Looked looked = installations.get(slug);
    if (looked == null || looked.at().plus(INSTALLATION_FRESH).isBefore(clock.instant())) {
      Answer answer;
      try {
        answer = github.asApp("GET", "/repos/" + slug + "/installation", null);
      } catch (GithubException e) {
        throw unreachable(e.getMessage());
      }
      if (answer.status() != 200 && answer.status() != 404) {
        throw unreachable(
            "GitHub did not say which installation serves "
                + slug
                + " (HTTP "
                + answer.status()
                + "): "
                + answer.message());
      }
      looked =
          new Looked(
              answer.status() == 200 ? answer.body().path("id").asLong() : null, clock.instant());
      installations.put(slug, looked);
    }
    if (looked.installation() == null) {
      throw unreachable("the GitHub App is not installed on " + slug);
    }
    Optional<GithubInstallation> bound = bindings.find(looked.installation());
    if (bound.isEmpty() || !repo.org().equals(bound.get().org())) {
      throw unreachable(
          "the GitHub App's installation on "
              + slug
              + " is not bound to this organization (bindGithubInstallation)");
    }
    if (bound.get().suspended()) {
      throw unreachable("the GitHub App's installation on " + slug + " is suspended");
    }
    return looked.installation();
  }

  static UncheckedIOException unreachable(String reason) {
    return new UncheckedIOException(new IOException(reason));
  }
}
