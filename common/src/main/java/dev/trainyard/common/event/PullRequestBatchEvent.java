package dev.trainyard.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.trainyard.common.queue.RepoRef;
import java.time.Instant;
import java.util.List;

/**
 * A {@code pull_request_batch.*} webhook body (API.md §7), sent beside the per-PR events when a
 * test run carries more than one PR. Both {@code pr_numbers} and {@code pr_numbers_in_batch} list
 * the run's PRs in the order they were tested.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PullRequestBatchEvent(
    String type,
    String action,
    @JsonProperty("pr_numbers") List<Long> prNumbers,
    @JsonProperty("pr_numbers_in_batch") List<Long> prNumbersInBatch,
    RepoRef repository,
    @JsonProperty("target_branch") String targetBranch,
    Instant timestamp,
    @JsonProperty("test_branch") String testBranch,
    @JsonProperty("test_branch_sha") String testBranchSha,
    Boolean batched,
    @JsonProperty("is_bisection") Boolean isBisection,
    @JsonProperty("queued_reason") String queuedReason,
    @JsonProperty("failure_reason") String failureReason,
    @JsonProperty("cancellation_reason") String cancellationReason,
    @JsonProperty("merged_reason") String mergedReason)
    implements PublicEvent {}
