package dev.trainyard.common.view;

import dev.trainyard.common.queue.PrState;
import java.time.Instant;
import java.util.List;

/**
 * One submission of a pull request as getSubmittedPullRequest returns it (every key present);
 * {@code dependsOn} (extension) the PRs of the queue it still waits to see land first; {@code
 * predictedRisk} (extension) the chance that it breaks the target as its submit predicted, null
 * when none did.
 */
public record PullRequestView(
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
    Readiness readiness,
    boolean forceEnqueued,
    boolean isCurrentlySubmittedToQueue,
    String verifiedByTestRun,
    List<Long> dependsOn,
    Double predictedRisk) {

  public PullRequestView {
    // rows stored before the key existed read as none
    dependsOn = dependsOn == null ? List.of() : List.copyOf(dependsOn);
  }

  /** The shorter shape of listPullRequests and getQueue's enqueuedPullRequests. */
  public PullRequestListItem listItem() {
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
        prAuthor);
  }
}
