package dev.trainyard.worker.scm.github;

import dev.trainyard.common.github.GithubClient.Answer;
import dev.trainyard.common.queue.OrgRepo;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * GitHub's review decision of pull requests (GraphQL {@code reviewDecision}, one query for many):
 * {@code APPROVED}, {@code CHANGES_REQUESTED}, {@code REVIEW_REQUIRED}, or none when the branch
 * asks for no review. It tells a PR GitHub blocks for a review from one it blocks for checks only
 * (CI that runs on trainyard's branches, not on PR heads), and, read again at landing, stops a
 * landing that would skip a review: a landing by a bypass actor skips every rule GitHub would
 * enforce.
 */
final class ReviewDecisions {
  private static final Logger log = LoggerFactory.getLogger(ReviewDecisions.class);

  /** No review policy: GitHub answers {@code reviewDecision} null. */
  static final String NONE = "";

  /** A GraphQL query as the installation serving {@code repo}. */
  interface Query {
    Answer ask(OrgRepo repo, String query, Map<String, Object> variables);
  }

  private final Query github;

  ReviewDecisions(Query github) {
    this.github = github;
  }

  /**
   * The decision of each of {@code numbers} GitHub gave ({@link #NONE} for no review policy); a PR
   * it gave none for is missing, as is every PR when GitHub could not answer.
   */
  Map<Long, String> of(OrgRepo repo, List<Long> numbers) {
    return of(repo, numbers, false);
  }

  /**
   * The same, for a landing: when GitHub could not be asked (unreachable, limited, an error
   * status), the call fails and the landing is tried again later, since a landing by a bypass actor
   * has no other guard. A query GitHub answered with errors (a repository it resolves under another
   * name since a rename) gives no decision, and the landing goes on.
   */
  Map<Long, String> beforeLanding(OrgRepo repo, List<Long> numbers) {
    return of(repo, numbers, true);
  }

  private Map<Long, String> of(OrgRepo repo, List<Long> numbers, boolean mustAsk) {
    Map<Long, String> decisions = new HashMap<>();
    if (numbers.isEmpty()) {
      return decisions;
    }
    StringBuilder query =
        new StringBuilder(
            "query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) {");
    for (long number : numbers) {
      query
          .append(" pr")
          .append(number)
          .append(": pullRequest(number: ")
          .append(number)
          .append(") { reviewDecision }");
    }
    query.append(" } }");
    Answer answer;
    try {
      answer =
          github.ask(
              repo,
              query.toString(),
              Map.of("owner", repo.repo().owner(), "name", repo.repo().name()));
    } catch (RuntimeException e) {
      if (mustAsk) {
        throw e;
      }
      log.info(
          "GitHub did not give the review decisions of {}: {}", repo.repo().slug(), e.toString());
      return decisions;
    }
    boolean limited =
        answer
            .body()
            .path("errors")
            .valueStream()
            .anyMatch(error -> error.path("type").asString("").equals("RATE_LIMITED"));
    if (mustAsk && (answer.status() != 200 || limited)) {
      throw new java.io.UncheckedIOException(
          new java.io.IOException(
              "GitHub did not give the review decisions of "
                  + repo.repo().slug()
                  + " (HTTP "
                  + answer.status()
                  + "): the landing waits for them"));
    }
    JsonNode found = answer.body().path("data").path("repository");
    if (answer.status() != 200 || !found.isObject()) {
      log.info(
          "GitHub did not give the review decisions of {} (HTTP {}): {}",
          repo.repo().slug(),
          answer.status(),
          answer.body().path("errors").toString());
      return decisions;
    }
    for (long number : numbers) {
      JsonNode pr = found.path("pr" + number);
      if (pr.isObject()) {
        JsonNode decision = pr.path("reviewDecision");
        decisions.put(number, decision.isString() ? decision.asString() : NONE);
      }
    }
    return decisions;
  }

  /** Why a review keeps GitHub from merging a PR of {@code decision}; null when none does. */
  static String blocking(String decision) {
    return switch (decision == null ? NONE : decision) {
      case "CHANGES_REQUESTED" ->
          "a review requested changes: GitHub blocks merging it until the reviewer approves or"
              + " the review is dismissed";
      case "REVIEW_REQUIRED" ->
          "an approving review its branch protection requires is missing: GitHub blocks merging"
              + " it";
      default -> null;
    };
  }
}
