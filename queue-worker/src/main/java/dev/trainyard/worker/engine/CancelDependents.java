package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.CancellationReason;
import dev.trainyard.worker.engine.QueueEvent.PullRequestCancelled;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A PR whose dependency (or the PR it is stacked on) failed or was cancelled is cancelled ({@code
 * DEPENDENCY_FAILED}), naming that PR; a chain or a stack is cancelled upwards, one rule pass each.
 */
final class CancelDependents implements PlanningRule {
  @Override
  public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
    return cancelDependents(state, ctx.now());
  }

  /** Cancels the PRs, in queue order, of which a dependency failed or was cancelled. */
  static List<QueueEvent> cancelDependents(QueueAggregate state, Instant now) {
    List<QueueEvent> events = new ArrayList<>();
    for (Entry e : state.inQueueOrder()) {
      Dependencies.failed(state, e)
          .ifPresent(
              cause ->
                  events.add(
                      new PullRequestCancelled(
                          e.id(), CancellationReason.DEPENDENCY_FAILED, now, cause)));
    }
    return events;
  }
}
