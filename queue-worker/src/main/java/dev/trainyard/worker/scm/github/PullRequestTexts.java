package dev.trainyard.worker.scm.github;

import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.worker.scm.CommitMessages;
import dev.trainyard.worker.scm.CommitMessages.CommitAuthor;
import dev.trainyard.worker.scm.CommitMessages.PullRequestText;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * A PR's author, description and co-authors as GitHub shows them, for a commit message template:
 * {@code GET /pulls/{n}} (unless the caller read it already) and the first 100 of {@code GET
 * /pulls/{n}/commits}. Asked only when a template names them.
 */
final class PullRequestTexts {
  static final int COMMITS = 100;

  private PullRequestTexts() {}

  /** {@code pull}: the PR as {@code GET /pulls/{n}} answered it, or null to ask. */
  static PullRequestText read(RepositoryCalls github, OrgRepo repo, long number, JsonNode pull) {
    JsonNode pr =
        pull != null ? pull : github.call(repo, "GET", "/pulls/" + number, null, 200).body();
    String login = pr.path("user").path("login").asString("");
    List<CommitAuthor> commits = new ArrayList<>();
    JsonNode listed =
        github
            .call(repo, "GET", "/pulls/" + number + "/commits?per_page=" + COMMITS, null, 200)
            .body();
    for (JsonNode c : listed) {
      JsonNode author = c.path("commit").path("author");
      commits.add(
          new CommitAuthor(
              author.path("name").asString(""),
              author.path("email").asString(""),
              c.path("author").path("login").asString(""),
              c.path("commit").path("message").asString("")));
    }
    return new PullRequestText(
        login,
        pr.path("body").asString("").replace("\r\n", "\n"),
        CommitMessages.coAuthors(login, null, commits));
  }
}
