package dev.trainyard.worker.scm.github;

import dev.trainyard.common.github.GithubClient.Answer;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.common.queue.TestBranches;
import dev.trainyard.worker.scm.CommitMessages;
import dev.trainyard.worker.scm.PullRequestHead;
import dev.trainyard.worker.scm.TestBranchResult;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * trainyard's branches in a GitHub repository (API.md §6): test branches built by GitHub's merge
 * endpoint on scratch branches CI does not watch, their draft pull requests ({@code
 * createPrsForTestingBranches}), and their deletion once their runs end.
 */
final class GithubTestBranches {
  private static final Logger log = LoggerFactory.getLogger(GithubTestBranches.class);
  private final RepositoryCalls github;

  GithubTestBranches(RepositoryCalls github) {
    this.github = github;
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
  TestBranchResult build(
      OrgRepo repo,
      String targetBranch,
      String branch,
      String baseSha,
      List<PullRequestHead> prs,
      CommitMessages messages) {
    Optional<String> base =
        baseSha != null ? Optional.of(baseSha) : github.branchHead(repo, targetBranch);
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
            github.call(
                repo,
                "POST",
                "/merges",
                Map.of(
                    "base",
                    scratch,
                    "head",
                    pr.sha(),
                    "commit_message",
                    messages.render(
                        repo,
                        targetBranch,
                        pr,
                        () -> PullRequestTexts.read(github, repo, pr.number(), null))),
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
        delete(repo, scratch);
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
        github.call(
            repo,
            "POST",
            "/git/refs",
            Map.of("ref", "refs/heads/" + branch, "sha", built),
            201,
            422);
    if (created.status() == 201) {
      return built;
    }
    Optional<String> there = github.branchHead(repo, branch);
    if (there.isPresent()
        && (there.get().equals(built) || containsAll(repo, there.get(), baseSha, prs))) {
      return there.get();
    }
    github.call(
        repo,
        "PATCH",
        "/git/refs/" + GithubScm.heads(branch),
        Map.of("sha", built, "force", true),
        200);
    return built;
  }

  /** Whether {@code commit} contains {@code baseSha} and every PR head (GitHub's compare). */
  private boolean containsAll(
      OrgRepo repo, String commit, String baseSha, List<PullRequestHead> prs) {
    List<String> wanted = new ArrayList<>(List.of(baseSha));
    prs.forEach(pr -> wanted.add(pr.sha()));
    for (String sha : wanted) {
      Answer compared =
          github.call(repo, "GET", "/compare/" + sha + "..." + commit, null, 200, 404);
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
        github.call(
            repo, "POST", "/git/refs", Map.of("ref", "refs/heads/" + branch, "sha", sha), 201, 422);
    if (created.status() == 422) {
      github.call(
          repo,
          "PATCH",
          "/git/refs/" + GithubScm.heads(branch),
          Map.of("sha", sha, "force", true),
          200);
    }
  }

  void delete(OrgRepo repo, String branch) {
    github.call(repo, "DELETE", "/git/refs/" + GithubScm.heads(branch), null, 204, 404, 422);
  }

  /**
   * A draft PR of the test branch (API.md §6 {@code createPrsForTestingBranches}), titled {@code
   * trainyard: testing #12, #15}, its body linking the tested PRs; the one already open for the
   * branch when a repeated effect asks again.
   */
  Optional<Long> openPullRequest(
      OrgRepo repo, String targetBranch, String branch, List<PullRequestHead> prs) {
    String head = repo.repo().owner() + ":" + branch;
    JsonNode open =
        github
            .call(
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
    Answer created = github.call(repo, "POST", "/pulls", pr, 201, 422);
    if (created.status() == 422) {
      // opened meanwhile by an earlier attempt, or GitHub refuses: say so with its own words
      throw GithubScm.unreachable(
          "GitHub refused to open a test pull request for " + branch + ": " + created.message());
    }
    return Optional.of(created.body().path("number").asLong());
  }

  void closePullRequest(OrgRepo repo, long number) {
    Answer pr = github.call(repo, "GET", "/pulls/" + number, null, 200, 404);
    if (pr.status() == 200 && pr.body().path("state").asString("").equals("open")) {
      github.call(repo, "PATCH", "/pulls/" + number, Map.of("state", "closed"), 200, 422);
    }
  }
}
