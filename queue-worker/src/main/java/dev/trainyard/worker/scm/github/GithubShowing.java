package dev.trainyard.worker.scm.github;

import dev.trainyard.common.github.GithubClient;
import dev.trainyard.common.queue.OrgRepo;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/**
 * What trainyard shows on a PR (API.md §6): the {@code trainyard} check run, one {@code
 * trainyard:*} state label, and a comment told once. Each write first passes {@code affordable}
 * (the {@link WriteBudget}'s showing lane), before the reads it needs.
 */
final class GithubShowing {
  private final RepositoryCalls github;
  private final Supplier<Long> appId;
  private final Consumer<OrgRepo> affordable;
  private final Set<String> createdLabels = ConcurrentHashMap.newKeySet();

  GithubShowing(RepositoryCalls github, Supplier<Long> appId, Consumer<OrgRepo> affordable) {
    this.github = github;
    this.appId = appId;
    this.affordable = affordable;
  }

  /**
   * Shows {@code check} as the {@code trainyard} check run on commit {@code sha}: updates run
   * {@code id}, or (null: not known to this worker) the one already on the commit, or creates it.
   * Answers the run's id.
   */
  long publishCheck(OrgRepo repo, String sha, Long id, GithubScm.CheckOutput check) {
    affordable.accept(repo);
    Long existing = id;
    if (existing == null) {
      // by the App's id too: another App's check of the same name is a CI result, not ours
      Long app = appId.get();
      JsonNode runs =
          github
              .call(
                  repo,
                  "GET",
                  "/commits/"
                      + sha
                      + "/check-runs?check_name="
                      + GithubScm.CHECK_NAME
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
      github.call(repo, "PATCH", "/check-runs/" + existing, body, 200);
      return existing;
    }
    body.put("name", GithubScm.CHECK_NAME);
    body.put("head_sha", sha);
    return github.call(repo, "POST", "/check-runs", body, 201).body().path("id").asLong();
  }

  /** The labels trainyard keeps on PRs ({@code stateLabelsEnabled}), and their one colour. */
  static final String LABEL_PREFIX = "trainyard:";

  private static final String LABEL_COLOR = "5319e7";

  /**
   * Gives PR {@code number} exactly one {@code trainyard:*} label, {@code label} (null: none):
   * other {@code trainyard:*} labels are removed, the wanted one is created in the repository when
   * missing and added when the PR lacks it. Repeating it changes nothing.
   */
  void stateLabel(OrgRepo repo, long number, String label) {
    affordable.accept(repo);
    JsonNode labels =
        github.call(repo, "GET", "/issues/" + number + "/labels?per_page=100", null, 200).body();
    boolean has = false;
    for (JsonNode existing : labels) {
      String name = existing.path("name").asString("");
      if (name.equals(label)) {
        has = true;
      } else if (name.startsWith(LABEL_PREFIX)) {
        github.call(
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
        github.call(
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
      github.call(
          repo, "POST", "/issues/" + number + "/labels", Map.of("labels", List.of(label)), 200);
    }
  }

  /**
   * Comments {@code body} on PR {@code number} unless a comment there already carries {@code
   * marker} (an HTML comment, invisible on GitHub), on any page of its comments: a failure is told
   * once, even by a worker that restarted.
   */
  void commentOnce(OrgRepo repo, long number, String marker, String body) {
    affordable.accept(repo);
    for (int page = 1; ; page++) {
      JsonNode comments =
          github
              .call(
                  repo,
                  "GET",
                  "/issues/" + number + "/comments?per_page=100&page=" + page,
                  null,
                  200)
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
    github.call(
        repo,
        "POST",
        "/issues/" + number + "/comments",
        Map.of("body", body + "\n\n" + marker),
        201);
  }
}
