package dev.trainyard.worker.scm.github;

import dev.trainyard.common.command.QueueCommand.ReportStatus;
import dev.trainyard.common.github.AppIds;
import dev.trainyard.common.github.CheckReports;
import dev.trainyard.common.github.GithubClient.Answer;
import dev.trainyard.common.github.ListPages;
import dev.trainyard.common.queue.OrgRepo;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/** CI's results on a commit as GitHub lists them: check suites, check runs and commit statuses. */
final class GithubReports {
  private static final int MAX_PAGES = ListPages.MAX_PAGES;
  private final RepositoryCalls github;
  private final Supplier<Long> appId;
  private final AppIds apps;

  /**
   * @param appId the App's own id (null while GitHub cannot say): its check is no CI result
   * @param apps the Apps behind Bot accounts, for statuses made by an App
   */
  GithubReports(RepositoryCalls github, Supplier<Long> appId, AppIds apps) {
    this.github = github;
    this.appId = appId;
    this.apps = apps;
  }

  /**
   * What CI reported on commit {@code sha}: every check run (its conclusion as GitHub's required
   * checks count it: {@code success}, {@code neutral} and {@code skipped} pass) and every check
   * suite with runs, but trainyard's own, and the newest commit status of each context (with the
   * App whose Bot made it, {@link AppIds}); each list read to its end, not only its first page.
   * Read with conditional requests, so an unchanged answer costs no rate limit.
   */
  List<ReportStatus> of(OrgRepo repo, String sha) {
    List<ReportStatus> out = new java.util.ArrayList<>();
    Long own = appId.get();
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
          run.path("name").asString("").equals(GithubScm.CHECK_NAME)
              && (own == null || run.path("app").path("id").asLong() == own);
      if (!ours) {
        out.add(CheckReports.ofCheckRun(run));
      }
    }
    // the list of statuses, newest first, names who made each: a status of an App's Bot counts
    // for a required check bound to that App (the combined status does not say)
    Answer statuses =
        ListPages.all(p -> github.call(repo, "GET", p, null, 200), "/commits/" + sha + "/statuses");
    Set<String> newest = new java.util.HashSet<>();
    for (JsonNode status : statuses.body()) {
      if (newest.add(status.path("context").asString(""))) {
        JsonNode creator = status.path("creator");
        Long app =
            apps.ofBot(creator.path("login").asString(null), creator.path("type").asString(null))
                .orElse(null);
        CheckReports.ofStatus(sha, status, app).ifPresent(out::add);
      }
    }
    boolean statusesCut = statuses.body().size() >= ListPages.MAX_PAGES * 100;
    if (suites.cut() || runs.cut() || statusesCut) {
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
      JsonNode body =
          github.call(repo, "GET", path + "?per_page=100&page=" + page, null, 200).body();
      JsonNode list = body.path(field);
      list.forEach(items::add);
      if (list.size() < 100 || items.size() >= body.path("total_count").asLong(0)) {
        return new Listed(items, false);
      }
    }
    return new Listed(items, true);
  }
}
