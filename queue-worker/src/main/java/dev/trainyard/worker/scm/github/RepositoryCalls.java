package dev.trainyard.worker.scm.github;

import dev.trainyard.common.github.GithubClient.Answer;
import dev.trainyard.common.queue.OrgRepo;
import java.util.Optional;

/** The REST calls on one repository, as its installation, that the parts of the adapter share. */
interface RepositoryCalls {
  /**
   * A call on {@code repo} ({@code path} relative to {@code /repos/{owner}/{repo}}); a status
   * outside {@code expected} fails with one sentence, the reason the queue shows.
   */
  Answer call(OrgRepo repo, String method, String path, Object body, int... expected);

  /** The commit {@code branch} points at, when it exists. */
  default Optional<String> branchHead(OrgRepo repo, String branch) {
    Answer answer = call(repo, "GET", "/git/ref/" + GithubScm.heads(branch), null, 200, 404);
    return answer.status() == 404
        ? Optional.empty()
        : Optional.of(answer.body().path("object").path("sha").asString());
  }
}
