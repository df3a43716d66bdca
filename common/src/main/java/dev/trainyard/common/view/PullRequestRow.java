package dev.trainyard.common.view;

import dev.trainyard.common.queue.PrState;
import java.time.Instant;

/**
 * One version of one submission in the {@code pull_requests} history collection. A row is valid for
 * queue versions {@code [fromVersion, toVersion)}; {@code toVersion} is null while it is the
 * current one. Listing at one queue version therefore reads an immutable snapshot, which is what
 * lets a keyset walk see every PR exactly once while PRs keep changing state. {@code supersedes} is
 * the {@code fromVersion} of the row this one replaces (null for a submission's first row), so the
 * writer closes it by id rather than by a query. {@code reason} is the reason code of the event
 * that moved the PR into this version (API.md §7: why it was queued, failed, cancelled or merged),
 * null when none did; the dashboard's timeline shows it.
 */
public record PullRequestRow(
    String id,
    String queueKey,
    String prId,
    long prNumber,
    String headBranch,
    PrState state,
    Instant stateChangedAt,
    Instant submittedAt,
    Instant concludedAt,
    long fromVersion,
    Long toVersion,
    Long supersedes,
    PullRequestView view,
    String reason) {

  public PullRequestRow withReason(String why) {
    return new PullRequestRow(
        id,
        queueKey,
        prId,
        prNumber,
        headBranch,
        state,
        stateChangedAt,
        submittedAt,
        concludedAt,
        fromVersion,
        toVersion,
        supersedes,
        view,
        why);
  }

  public static String rowId(String prId, long version) {
    return prId + "@" + version;
  }

  /** Id of the newest row of a PR number in a queue, in {@link Collections#PULL_REQUEST_HEADS}. */
  public static String headId(String queueKey, long prNumber) {
    return queueKey + "#" + prNumber;
  }
}
