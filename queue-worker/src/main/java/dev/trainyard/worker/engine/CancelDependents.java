package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.CancellationReason;
import dev.trainyard.worker.engine.QueueEvent.PullRequestCancelled;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A PR whose dependency failed or was cancelled is cancelled ({@code DEPENDENCY_FAILED}). */
final class CancelDependents implements PlanningRule {
  @Override
  public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
    return cancelDependents(state, ctx.now());
  }

  /** Cancels the PRs, in queue order, of which a dependency failed or was cancelled. */
  static List<QueueEvent> cancelDependents(QueueAggregate state, Instant now) {
    List<QueueEvent> events = new ArrayList<>();
    for (Entry e : state.inQueueOrder()) {
      if (Dependencies.failed(state, e).isPresent()) {
        events.add(new PullRequestCancelled(e.id(), CancellationReason.DEPENDENCY_FAILED, now));
      }
    }
    return events;
  }
}
