package dev.trainyard.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.trainyard.common.queue.RepoRef;
import java.time.Instant;

/**
 * A {@code pull_request.*} webhook body (API.md §7). The reason fields and the test-branch fields
 * only appear on the event types that carry them ({@code test_pr_number} is the tested PR itself:
 * plain git has no separate testing PR). {@code cancelled_by_pr} (extension): on a {@code
 * DEPENDENCY_FAILED} cancellation, the PR it depended on (or was stacked on) that failed or was
 * cancelled.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PullRequestEvent(
    String type,
    String action,
    String status,
    String author,
    @JsonProperty("http_details_url") String httpDetailsUrl,
    @JsonProperty("pr_number") long prNumber,
    RepoRef repository,
    @JsonProperty("target_branch") String targetBranch,
    Instant timestamp,
    @JsonProperty("test_branch") String testBranch,
    @JsonProperty("test_branch_sha") String testBranchSha,
    @JsonProperty("test_pr_number") Long testPrNumber,
    Boolean batched,
    @JsonProperty("is_bisection") Boolean isBisection,
    @JsonProperty("submitted_reason") String submittedReason,
    @JsonProperty("queued_reason") String queuedReason,
    @JsonProperty("failure_reason") String failureReason,
    @JsonProperty("cancellation_reason") String cancellationReason,
    @JsonProperty("merged_reason") String mergedReason,
    @JsonProperty("cancelled_by_pr") Long cancelledByPr)
    implements PublicEvent {}
