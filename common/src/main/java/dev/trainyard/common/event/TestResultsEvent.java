package dev.trainyard.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.trainyard.common.queue.RepoRef;
import java.time.Instant;
import java.util.List;

/**
 * A {@code test_results.classified} webhook body (API.md §7, extension): the flaky-tests service
 * classified an upload of test results for {@code commitSha}; {@code failedTests} of its tests
 * failed, {@code unexcusedFailures} of those neither quarantined nor excused by a flake on record
 * (one in 28 days from outside the upload, of a test neither broken nor set never to be
 * quarantined; ADR 0059), and {@code excusedByPrs}: for each failed test excused only by flakes
 * seen on pull requests, their numbers (at most 1,000 tests, 20 PRs each; past that a test counts
 * as unexcused). The queue worker reads it too: a red run whose failures are all excused — and not
 * by its own PRs' flakes — is tested once more (SCHEDULING.md "Flake-aware failures").
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TestResultsEvent(
    String type,
    RepoRef repository,
    @JsonProperty("commit_sha") String commitSha,
    String branch,
    @JsonProperty("pr_number") Long prNumber,
    @JsonProperty("upload_id") String uploadId,
    @JsonProperty("failed_tests") int failedTests,
    @JsonProperty("unexcused_failures") int unexcusedFailures,
    @JsonProperty("excused_by_prs") List<List<Long>> excusedByPrs,
    Instant timestamp)
    implements PublicEvent {

  public static final String TYPE = "test_results.classified";

  public static TestResultsEvent of(
      RepoRef repository,
      String commitSha,
      String branch,
      Long prNumber,
      String uploadId,
      int failedTests,
      int unexcusedFailures,
      List<List<Long>> excusedByPrs,
      Instant at) {
    return new TestResultsEvent(
        TYPE,
        repository,
        commitSha,
        branch,
        prNumber,
        uploadId,
        failedTests,
        unexcusedFailures,
        excusedByPrs,
        at);
  }
}
