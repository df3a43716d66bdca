package dev.trainyard.common.view;

import dev.trainyard.common.queue.PrState;
import java.time.Instant;

/** A pull request in a listing (API.md §2 listPullRequests). */
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
    String prAuthor) {}
