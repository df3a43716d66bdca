package dev.trainyard.common.view;

import dev.trainyard.common.queue.PrState;
import java.time.Instant;

/**
 * A pull request in a listing (API.md §2 listPullRequests). {@code queuePosition} and {@code
 * estimatedMergeAt} are stored null and filled by readers from the queue's {@link QueueForecast}.
 */
public record PullRequestListItem(
    String id,
    PrState state,
    Instant stateChangedAt,
    int priorityValue,
    String priorityName,
    String usedDefaultPriorityName,
    boolean skipTheLine,
    boolean noBatch,
    long prNumber,
    String prTitle,
    String prSha,
    String prBaseBranch,
    String prAuthor,
    Integer queuePosition,
    Instant estimatedMergeAt) {

  /** This item with where it stands in {@code forecast} (nothing once concluded). */
  public PullRequestListItem withForecast(QueueForecast forecast, Instant now) {
    boolean waiting = !state.isFinal();
    return new PullRequestListItem(
        id,
        state,
        stateChangedAt,
        priorityValue,
        priorityName,
        usedDefaultPriorityName,
        skipTheLine,
        noBatch,
        prNumber,
        prTitle,
        prSha,
        prBaseBranch,
        prAuthor,
        waiting ? forecast.position(prNumber).orElse(null) : null,
        waiting ? forecast.estimatedMergeAt(prNumber, now).orElse(null) : null);
  }
}
