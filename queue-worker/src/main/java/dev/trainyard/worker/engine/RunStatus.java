package dev.trainyard.worker.engine;

import dev.trainyard.common.command.CommitState;
import java.time.Instant;

/**
 * The newest report of one CI context, from one reporter, on a commit: results are keyed by
 * (context, {@code appId}), as GitHub keys check runs by app and name, so two apps' checks of the
 * same name never overwrite each other. {@code appId} is the GitHub App that reported a check run
 * (null for commit statuses and plain CI); {@code checkRunId} GitHub's id of that check run.
 */
public record RunStatus(
    String context,
    CommitState state,
    String url,
    String description,
    Long appId,
    Long checkRunId,
    Instant at) {

  /** Whether a report of {@code otherContext} by {@code otherApp} is of this same check. */
  public boolean sameCheck(String otherContext, Long otherApp) {
    return context.equals(otherContext) && java.util.Objects.equals(appId, otherApp);
  }
}
