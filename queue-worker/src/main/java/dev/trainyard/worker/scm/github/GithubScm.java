package dev.trainyard.worker.scm.github;

import dev.trainyard.common.command.QueueCommand.RecordRequiredChecks;
import dev.trainyard.common.command.QueueCommand.ReportStatus;
import dev.trainyard.common.command.QueueCommand.SubmitPullRequest;
import dev.trainyard.common.github.CheckReports;
import dev.trainyard.common.github.GithubClient;
import dev.trainyard.common.github.GithubClient.Answer;
import dev.trainyard.common.github.GithubException;
import dev.trainyard.common.github.GithubInstallation;
import dev.trainyard.common.github.LandingRules;
import dev.trainyard.common.queue.DependsOnLines;
import dev.trainyard.common.queue.MergeMethod;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.common.queue.TestBranches;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;

/**
 * The {@link ScmProvider} of repositories on GitHub (API.md §6 "The GitHub App adapter"), through
 * the App's installation on each repository. Organization O reaches a repository only through an
 * installation bound to O; otherwise every call fails with the sentence its queue shows as the
 * reason its PRs are not ready. Test branches are built in the repository by GitHub's merge
 * endpoint; a run lands by moving the target ref forward to the tested commit ({@code
 * merge_commit}, never forced) or by GitHub's pull-request merge with each tested head ({@code
 * squash}, {@code rebase}), and only while the target still has the tree the run was built on.
 */
public final class GithubScm implements ScmProvider {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(GithubScm.class);
  static final Duration INSTALLATION_FRESH = Duration.ofSeconds(30);

  /** The check run trainyard keeps on every queued PR's head. */
  public static final String CHECK_NAME = "trainyard";

  private static final int MAX_PAGES = 10;

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
  private final Set<String> createdLabels = ConcurrentHashMap.newKeySet();

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
            hold(pr),
            DependsOnLines.parse(pr.path("body").asString(""), SubmitPullRequest.MAX_DEPENDS_ON)));
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
   * What holds a PR GitHub could merge: a draft, or branch protection ({@code mergeable_state}
   * {@code blocked}: a review or a check it requires). Its own outcome, not a conflict: the PR
   * waits, not ready, and comes back when GitHub lets it go.
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

  /**
   * Builds the run's branch on a scratch branch CI does not watch ({@link TestBranches#scratch}),
   * one {@code POST /merges} per PR, then creates the test branch once at the result: CI sees one
   * push, one pipeline, per run, not one per PR plus the base.
   *
   * <p>Two builders of one run (a worker that lost the queue's partition and its successor) never
   * share a ref they move: each builds on a scratch branch of its own attempt, and checks every
   * merge commit GitHub returns has the commit before it and the PR's head as parents, so the heads
   * it reports contained are contained. The test branch is created, never moved, while it holds a
   * commit that contains the base and every PR head (another attempt's, or one left by a worker
   * that stopped before recording it): that commit is the run's, and both builders report it — the
   * recorded commit is always the branch's head. Only a branch holding something else is moved to
   * this build.
   */
  @Override
  public TestBranchResult buildTestBranch(
      OrgRepo repo,
      String targetBranch,
      String branch,
      String baseSha,
      List<PullRequestHead> prs,
      Instant at) {
    Optional<String> base = baseSha != null ? Optional.of(baseSha) : branchHead(repo, targetBranch);
    if (base.isEmpty()) {
      return new TestBranchResult.NoBase("branch " + targetBranch + " does not exist");
    }
    String scratch =
        TestBranches.scratch(branch) + "-" + UUID.randomUUID().toString().substring(0, 8);
    placeBranch(repo, scratch, base.get());
    String head = base.get();
    try {
      for (PullRequestHead pr : prs) {
        Answer merged =
            call(
                repo,
                "POST",
                "/merges",
                Map.of(
                    "base",
                    scratch,
                    "head",
                    pr.sha(),
                    "commit_message",
                    "Merge pull request #" + pr.number() + ": " + pr.title()),
                201,
                204,
                409);
        if (merged.status() == 409) {
          return new TestBranchResult.Conflict(pr.number());
        }
        if (merged.status() == 201) {
          head = mergedOnto(merged.body(), head, pr);
        }
      }
      head = placeTestBranch(repo, branch, base.get(), head, prs);
    } finally {
      try {
        deleteBranch(repo, scratch);
      } catch (RuntimeException e) {
        // the test branch stands: building it again would push it again, a second CI pipeline;
        // a scratch branch left behind is not watched
        log.warn("could not delete {} of {}: {}", scratch, repo, e.getMessage());
      }
    }
    return new TestBranchResult.Built(
        branch, base.get(), head, prs.stream().map(PullRequestHead::sha).toList());
  }

  /**
   * The merge commit GitHub made, checked to be {@code pr}'s head merged onto {@code onto}: a
   * scratch branch moved under the build would make a commit missing what was merged before.
   */
  private static String mergedOnto(JsonNode commit, String onto, PullRequestHead pr) {
    List<String> parents = new ArrayList<>();
    commit.path("parents").forEach(p -> parents.add(p.path("sha").asString("")));
    if (!parents.equals(List.of(onto, pr.sha()))) {
      throw new IllegalStateException(
          "the merge of PR #"
              + pr.number()
              + " has parents "
              + parents
              + ", not "
              + onto
              + " and its head "
              + pr.sha()
              + ": the scratch branch moved under the build");
    }
    return commit.path("sha").asString();
  }

  /**
   * Creates the test branch at {@code built}; when it exists, keeps what it holds if that contains
   * the base and every PR head, else moves it to {@code built}.
   *
   * @return the commit the test branch holds
   */
  private String placeTestBranch(
      OrgRepo repo, String branch, String baseSha, String built, List<PullRequestHead> prs) {
    Answer created =
        call(
            repo,
            "POST",
            "/git/refs",
            Map.of("ref", "refs/heads/" + branch, "sha", built),
            201,
            422);
    if (created.status() == 201) {
      return built;
    }
    Optional<String> there = branchHead(repo, branch);
    if (there.isPresent()
        && (there.get().equals(built) || containsAll(repo, there.get(), baseSha, prs))) {
      return there.get();
    }
    call(repo, "PATCH", "/git/refs/" + heads(branch), Map.of("sha", built, "force", true), 200);
    return built;
  }

  /** Whether {@code commit} contains {@code baseSha} and every PR head (GitHub's compare). */
  private boolean containsAll(
      OrgRepo repo, String commit, String baseSha, List<PullRequestHead> prs) {
    List<String> wanted = new ArrayList<>(List.of(baseSha));
    prs.forEach(pr -> wanted.add(pr.sha()));
    for (String sha : wanted) {
      Answer compared = call(repo, "GET", "/compare/" + sha + "..." + commit, null, 200, 404);
      String status = compared.body().path("status").asString("");
      if (compared.status() != 200 || !(status.equals("ahead") || status.equals("identical"))) {
        return false;
      }
    }
    return true;
  }

  /** Creates {@code branch} at {@code sha}, or moves it there when it exists (our own branch). */
  private void placeBranch(OrgRepo repo, String branch, String sha) {
    Answer created =
        call(
            repo, "POST", "/git/refs", Map.of("ref", "refs/heads/" + branch, "sha", sha), 201, 422);
    if (created.status() == 422) {
      call(repo, "PATCH", "/git/refs/" + heads(branch), Map.of("sha", sha, "force", true), 200);
    }
  }

  @Override
  public MergeResult merge(
      OrgRepo repo,
      String targetBranch,
      String expectedTargetSha,
      String builtOnSha,
      String testedSha,
      MergeMethod method,
      List<PullRequestHead> prs) {
    Optional<String> head = branchHead(repo, targetBranch);
    if (head.isEmpty()) {
      return new MergeResult.TargetMoved(null);
    }
    if (!head.get().equals(expectedTargetSha)) {
      return landed(repo, head.get(), testedSha, prs)
          ? new MergeResult.Merged(head.get())
          : new MergeResult.TargetMoved(head.get());
    }
    if (method == MergeMethod.MERGE_COMMIT && expectedTargetSha.equals(builtOnSha)) {
      Answer moved =
          call(
              repo,
              "PATCH",
              "/git/refs/" + heads(targetBranch),
              Map.of("sha", testedSha, "force", false),
              200,
              422);
      if (moved.status() == 200) {
        return new MergeResult.Merged(testedSha);
      }
      Optional<String> now = branchHead(repo, targetBranch);
      if (now.isPresent() && now.get().equals(testedSha)) {
        return new MergeResult.Merged(testedSha);
      }
      if (now.isPresent() && now.get().equals(expectedTargetSha)) {
        // the target did not move: GitHub refused the update itself (protection without a bypass
        // for the App, linear history, signed commits, its own merge queue required)
        return new MergeResult.Refused(
            "GitHub refused to move "
                + targetBranch
                + " to the tested commit (HTTP 422): "
                + moved.message());
      }
      return new MergeResult.TargetMoved(now.orElse(null));
    }
    if (!tree(repo, expectedTargetSha).equals(tree(repo, builtOnSha))) {
      return new MergeResult.TargetMoved(expectedTargetSha); // not what was tested: rebuild
    }
    String mergeMethod = LandingRules.endpointMethod(method);
    if (method == MergeMethod.REBASE) {
      Optional<Long> unsafe = notRebaseable(repo, prs);
      if (unsafe.isPresent()) {
        return new MergeResult.TreeDiffers(unsafe.get(), GITHUB_CANNOT_REBASE);
      }
    }
    for (PullRequestHead pr : prs) {
      if (merged(repo, pr.number()).isPresent()) {
        continue; // landed by an earlier attempt
      }
      Answer answer =
          call(
              repo,
              "PUT",
              "/pulls/" + pr.number() + "/merge",
              Map.of(
                  "sha",
                  pr.sha(),
                  "merge_method",
                  mergeMethod,
                  "commit_title",
                  pr.title() + " (#" + pr.number() + ")"),
              200,
              405,
              409);
      if (answer.status() != 200) {
        return refusedMerge(repo, targetBranch, pr, answer);
      }
    }
    Optional<String> landed = branchHead(repo, targetBranch);
    if (landed.isPresent() && !tree(repo, landed.get()).equals(tree(repo, testedSha))) {
      // GitHub made the commits; what it made is on the target and cannot be taken back here
      log.error(
          "GitHub landed {} on {} of {} by {} with a tree other than the tested {}'s; the"
              + " difference is on the target branch",
          prs.stream().map(p -> "#" + p.number()).toList(),
          targetBranch,
          repo.repo().slug(),
          method,
          testedSha);
    }
    return landed
        .<MergeResult>map(MergeResult.Merged::new)
        .orElseGet(() -> new MergeResult.TargetMoved(null));
  }

  private static final String GITHUB_CANNOT_REBASE =
      "GitHub cannot rebase it safely: replaying its commits would give another result than the"
          + " merge CI tested (its branch has a merge commit); land it with merge_commit or squash,"
          + " or rebase the branch without merge commits";

  /**
   * The first PR not yet merged that GitHub says it cannot rebase ({@code rebaseable} false: the
   * rebase would give another tree than a merge), before anything moves; {@code null} (still
   * computing) is not a refusal, and the merge call answers for it.
   */
  private Optional<Long> notRebaseable(OrgRepo repo, List<PullRequestHead> prs) {
    for (PullRequestHead pr : prs) {
      Answer answer = call(repo, "GET", "/pulls/" + pr.number(), null, 200, 404);
      JsonNode body = answer.body();
      if (answer.status() == 200
          && !body.path("merged").asBoolean(false)
          && body.path("rebaseable").isBoolean()
          && !body.path("rebaseable").asBoolean()) {
        return Optional.of(pr.number());
      }
    }
    return Optional.empty();
  }

  /**
   * Why GitHub's merge endpoint refused PR {@code pr}, read from its answer: the base moved ("Base
   * branch was modified") → rebuild on the target's new head; the head moved (409, "Head branch was
   * modified") → read the PR again; a real conflict (GitHub shows the PR not mergeable) → the PR
   * conflicts; anything else (a merge method the repository disables, approvals missing, strict
   * checks wanting the branch up to date) is the host's refusal, in its words.
   */
  private MergeResult refusedMerge(
      OrgRepo repo, String targetBranch, PullRequestHead pr, Answer answer) {
    String message = answer.message();
    String lower = message.toLowerCase(java.util.Locale.ROOT);
    if (lower.contains("base branch was modified")) {
      return new MergeResult.TargetMoved(branchHead(repo, targetBranch).orElse(null));
    }
    if (answer.status() == 409 || lower.contains("head branch was modified")) {
      return new MergeResult.HeadModified(pr.number());
    }
    if (lower.contains("can't be rebased") || lower.contains("cannot be rebased")) {
      return new MergeResult.TreeDiffers(pr.number(), GITHUB_CANNOT_REBASE);
    }
    Answer now = call(repo, "GET", "/pulls/" + pr.number(), null, 200, 404);
    if (now.status() == 200
        && now.body().path("mergeable").isBoolean()
        && !now.body().path("mergeable").asBoolean()) {
      return new MergeResult.Conflict(pr.number());
    }
    return new MergeResult.Refused(
        "GitHub refused to merge #"
            + pr.number()
            + " (HTTP "
            + answer.status()
            + "): "
            + message
            + (now.status() == 200
                ? " (mergeable_state: " + now.body().path("mergeable_state").asString("?") + ")"
                : ""));
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
        .filter(head -> landed(repo, head, testedSha, prs));
  }

  @Override
  public void deleteBranch(OrgRepo repo, String branch) {
    call(repo, "DELETE", "/git/refs/" + heads(branch), null, 204, 404, 422);
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
    Answer answer = call(repo, "GET", "/git/ref/" + heads(branch), null, 200, 404);
    return answer.status() == 404
        ? Optional.empty()
        : Optional.of(answer.body().path("object").path("sha").asString());
  }

  /**
   * Shows {@code check} as the {@code trainyard} check run on commit {@code sha}: updates run
   * {@code id}, or (null: not known to this worker) the one already on the commit, or creates it.
   * Answers the run's id.
   */
  public long publishCheck(OrgRepo repo, String sha, Long id, CheckOutput check) {
    affordable(repo);
    Long existing = id;
    if (existing == null) {
      // by the App's id too: another App's check of the same name is a CI result, not ours
      Long app = github.appId();
      JsonNode runs =
          call(
                  repo,
                  "GET",
                  "/commits/"
                      + sha
                      + "/check-runs?check_name="
                      + CHECK_NAME
                      + (app == null ? "" : "&app_id=" + app),
                  null,
                  200)
              .body()
              .path("check_runs");
      existing = runs.isEmpty() ? null : runs.get(0).path("id").asLong();
    }
    Map<String, Object> body = new java.util.LinkedHashMap<>();
    body.put("status", check.conclusion() == null ? "in_progress" : "completed");
    if (check.conclusion() != null) {
      body.put("conclusion", check.conclusion());
    }
    body.put("output", Map.of("title", check.title(), "summary", check.summary()));
    if (check.detailsUrl() != null) {
      body.put("details_url", check.detailsUrl());
    }
    if (existing != null) {
      call(repo, "PATCH", "/check-runs/" + existing, body, 200);
      return existing;
    }
    body.put("name", CHECK_NAME);
    body.put("head_sha", sha);
    return call(repo, "POST", "/check-runs", body, 201).body().path("id").asLong();
  }

  /**
   * What the {@code trainyard} check run shows; {@code conclusion} null while the PR is queued;
   * {@code detailsUrl} the PR's page in trainyard.
   */
  public record CheckOutput(String title, String summary, String conclusion, String detailsUrl) {}

  /** The labels trainyard keeps on PRs ({@code stateLabelsEnabled}), and their one colour. */
  static final String LABEL_PREFIX = "trainyard:";

  private static final String LABEL_COLOR = "5319e7";

  /**
   * Gives PR {@code number} exactly one {@code trainyard:*} label, {@code label} (null: none):
   * other {@code trainyard:*} labels are removed, the wanted one is created in the repository when
   * missing and added when the PR lacks it. Repeating it changes nothing.
   */
  public void stateLabel(OrgRepo repo, long number, String label) {
    affordable(repo);
    JsonNode labels =
        call(repo, "GET", "/issues/" + number + "/labels?per_page=100", null, 200).body();
    boolean has = false;
    for (JsonNode existing : labels) {
      String name = existing.path("name").asString("");
      if (name.equals(label)) {
        has = true;
      } else if (name.startsWith(LABEL_PREFIX)) {
        call(
            repo,
            "DELETE",
            "/issues/" + number + "/labels/" + GithubClient.segments(name),
            null,
            200,
            404);
      }
    }
    if (label != null && !has) {
      if (!createdLabels.contains(repo.repo().slug() + "#" + label)) {
        call(
            repo,
            "POST",
            "/labels",
            Map.of(
                "name",
                label,
                "color",
                LABEL_COLOR,
                "description",
                "The pull request's state in the trainyard merge queue"),
            201,
            422); // 422: it exists already
        createdLabels.add(repo.repo().slug() + "#" + label);
      }
      call(repo, "POST", "/issues/" + number + "/labels", Map.of("labels", List.of(label)), 200);
    }
  }

  /**
   * Comments {@code body} on PR {@code number} unless a comment there already carries {@code
   * marker} (an HTML comment, invisible on GitHub), on any page of its comments: a failure is told
   * once, even by a worker that restarted.
   */
  public void commentOnce(OrgRepo repo, long number, String marker, String body) {
    affordable(repo);
    for (int page = 1; ; page++) {
      JsonNode comments =
          call(repo, "GET", "/issues/" + number + "/comments?per_page=100&page=" + page, null, 200)
              .body();
      for (JsonNode comment : comments) {
        if (comment.path("body").asString("").contains(marker)) {
          return;
        }
      }
      if (comments.size() < 100) {
        break; // the last page: a busy PR has more than 100 comments before the failure
      }
    }
    call(
        repo,
        "POST",
        "/issues/" + number + "/comments",
        Map.of("body", body + "\n\n" + marker),
        201);
  }

  /** Whether an earlier attempt already landed this run with {@code head} on the target. */
  private boolean landed(OrgRepo repo, String head, String testedSha, List<PullRequestHead> prs) {
    return head.equals(testedSha)
        || !prs.isEmpty()
            && merged(repo, prs.get(prs.size() - 1).number()).filter(head::equals).isPresent();
  }

  /** The merge commit of PR {@code number} when GitHub has merged it. */
  private Optional<String> merged(OrgRepo repo, long number) {
    Answer answer = call(repo, "GET", "/pulls/" + number, null, 200, 404);
    return answer.status() == 200 && answer.body().path("merged").asBoolean(false)
        ? Optional.of(answer.body().path("merge_commit_sha").asString())
        : Optional.empty();
  }

  /**
   * {@code heads/<branch>} as a URL path: each segment percent-encoded, since a git branch name may
   * hold {@code #}, {@code %} or {@code ?}, which would otherwise end the path or be decoded into
   * another branch's name ({@code main#x} read as {@code main}).
   */
  static String heads(String branch) {
    return "heads/" + GithubClient.segments(branch);
  }

  /**
   * A draft PR of the test branch (API.md §6 {@code createPrsForTestingBranches}), titled {@code
   * trainyard: testing #12, #15}, its body linking the tested PRs; the one already open for the
   * branch when a repeated effect asks again.
   */
  @Override
  public Optional<Long> openTestPullRequest(
      OrgRepo repo, String targetBranch, String branch, List<PullRequestHead> prs) {
    String head = repo.repo().owner() + ":" + branch;
    JsonNode open =
        call(
                repo,
                "GET",
                "/pulls?state=open&head="
                    + URLEncoder.encode(head, StandardCharsets.UTF_8)
                    + "&base="
                    + URLEncoder.encode(targetBranch, StandardCharsets.UTF_8),
                null,
                200)
            .body();
    if (!open.isEmpty()) {
      return Optional.of(open.get(0).path("number").asLong());
    }
    String numbers = String.join(", ", prs.stream().map(p -> "#" + p.number()).toList());
    StringBuilder body =
        new StringBuilder("trainyard tests these pull requests together on top of ")
            .append(targetBranch)
            .append(":\n");
    prs.forEach(p -> body.append("\n- #").append(p.number()).append(' ').append(p.title()));
    body.append("\n\nIt is closed when the test run ends; do not merge it.");
    Map<String, Object> pr = new java.util.LinkedHashMap<>();
    pr.put("title", "trainyard: testing " + numbers);
    pr.put("head", branch);
    pr.put("base", targetBranch);
    pr.put("body", body.toString());
    pr.put("draft", true);
    pr.put("maintainer_can_modify", false);
    Answer created = call(repo, "POST", "/pulls", pr, 201, 422);
    if (created.status() == 422) {
      // opened meanwhile by an earlier attempt, or GitHub refuses: say so with its own words
      throw unreachable(
          "GitHub refused to open a test pull request for " + branch + ": " + created.message());
    }
    return Optional.of(created.body().path("number").asLong());
  }

  @Override
  public void closeTestPullRequest(OrgRepo repo, long number) {
    Answer pr = call(repo, "GET", "/pulls/" + number, null, 200, 404);
    if (pr.status() == 200 && pr.body().path("state").asString("").equals("open")) {
      call(repo, "PATCH", "/pulls/" + number, Map.of("state", "closed"), 200, 422);
    }
  }

  @Override
  public Optional<RecordRequiredChecks> requiredChecks(OrgRepo repo, String branch, boolean fresh) {
    return Optional.of(rules.read(repo, branch, fresh));
  }

  /**
   * What CI reported on commit {@code sha}: every check run (its conclusion as GitHub's required
   * checks count it: {@code success}, {@code neutral} and {@code skipped} pass) and every check
   * suite with runs, but trainyard's own, and every commit status; each list read to its end, not
   * only its first page. Read with conditional requests, so an unchanged answer costs no rate
   * limit.
   */
  public List<ReportStatus> reports(OrgRepo repo, String sha) {
    List<ReportStatus> out = new java.util.ArrayList<>();
    Long own = github.appId();
    Listed suites = all(repo, "/commits/" + sha + "/check-suites", "check_suites");
    for (JsonNode suite : suites.items()) {
      JsonNode app = suite.path("app");
      if (own == null || app.path("id").asLong() != own) {
        CheckReports.ofCheckSuite(suite, app).ifPresent(out::add);
      }
    }
    Listed runs = all(repo, "/commits/" + sha + "/check-runs", "check_runs");
    for (JsonNode run : runs.items()) {
      boolean ours =
          run.path("name").asString("").equals(CHECK_NAME)
              && (own == null || run.path("app").path("id").asLong() == own);
      if (!ours) {
        out.add(CheckReports.ofCheckRun(run));
      }
    }
    Listed statuses = all(repo, "/commits/" + sha + "/status", "statuses");
    for (JsonNode status : statuses.items()) {
      CheckReports.ofStatus(sha, status).ifPresent(out::add);
    }
    if (suites.cut() || runs.cut() || statuses.cut()) {
      out.add(CheckReports.tooMany(sha, MAX_PAGES * 100));
    }
    return out;
  }

  /** The items of a list GitHub pages, and whether it had more than were read. */
  private record Listed(List<JsonNode> items, boolean cut) {}

  /**
   * Every item of list {@code field} at {@code path}, page by page of 100 until {@code total_count}
   * is read, at most {@link #MAX_PAGES} pages.
   */
  private Listed all(OrgRepo repo, String path, String field) {
    List<JsonNode> items = new java.util.ArrayList<>();
    for (int page = 1; page <= MAX_PAGES; page++) {
      JsonNode body = call(repo, "GET", path + "?per_page=100&page=" + page, null, 200).body();
      JsonNode list = body.path(field);
      list.forEach(items::add);
      if (list.size() < 100 || items.size() >= body.path("total_count").asLong(0)) {
        return new Listed(items, false);
      }
    }
    return new Listed(items, true);
  }

  private String tree(OrgRepo repo, String sha) {
    return call(repo, "GET", "/git/commits/" + sha, null, 200)
        .body()
        .path("tree")
        .path("sha")
        .asString();
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

  private static UncheckedIOException unreachable(String reason) {
    return new UncheckedIOException(new IOException(reason));
  }
}
