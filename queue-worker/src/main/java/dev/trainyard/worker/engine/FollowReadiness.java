package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.PrState;
import dev.trainyard.worker.engine.QueueEvent.PullRequestNotReady;
import dev.trainyard.worker.engine.QueueEvent.PullRequestQueued;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** PRs that wait for a run move between {@code not_ready} and {@code pending}. */
final class FollowReadiness implements PlanningRule {
  @Override
  public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
    return followReadiness(state, ctx.now());
  }

  /**
   * A PR is ready when it merges cleanly into the target from it, has impacted targets where the
   * mode needs them, and the checks that decide its runs are known ({@link
   * QueueAggregate#checksProblem()}): a not-ready PR that became ready is {@code pending}, and a
   * pending PR without a run that no longer is goes back to {@code not_ready}.
   */
  static List<QueueEvent> followReadiness(QueueAggregate state, Instant now) {
    List<QueueEvent> events = new ArrayList<>();
    boolean requiresTargets = state.settings().requiresImpactedTargets();
    boolean checksKnown = state.checksProblem() == null;
    for (Entry e : state.inQueueOrder()) {
      boolean ready =
          checksKnown
              && e.isReady(state.key().branch(), requiresTargets)
              && Dependencies.problem(state, e).isEmpty();
      if (e.state() == PrState.NOT_READY && ready) {
        events.add(new PullRequestQueued(e.id(), Reasons.MERGE_ITEM_NOW_READY, now));
      } else if (e.state() == PrState.PENDING && e.testRunId() == null && !ready) {
        events.add(new PullRequestNotReady(e.id(), now));
      }
    }
    return events;
  }
}
