package dev.trainyard.worker.projection;

import dev.trainyard.common.view.PullRequestListItem;
import dev.trainyard.common.view.PullRequestView;
import dev.trainyard.common.view.QueueView;
import dev.trainyard.common.view.Readiness;
import dev.trainyard.worker.engine.Entry;
import dev.trainyard.worker.engine.QueueAggregate;
import java.util.List;

/** The read-model shapes of queues and pull requests, built from engine state. */
public final class Views {
  private Views() {}

  public static QueueView queue(QueueAggregate queue) {
    List<PullRequestListItem> enqueued =
        queue.inQueueOrder().stream().map(e -> pullRequest(queue, e).listItem()).toList();
    return new QueueView(queue.state(), queue.key().branch(), queue.settings(), enqueued);
  }

  public static PullRequestView pullRequest(QueueAggregate queue, Entry e) {
    Readiness readiness =
        new Readiness(
            e.hasImpactedTargets(),
            queue.settings().requiresImpactedTargets(),
            queue.key().branch().equals(e.pr().baseBranch()),
            e.mergeability());
    return new PullRequestView(
        e.id(),
        e.state(),
        e.stateChangedAt(),
        e.priority().value(),
        e.priority().name(),
        e.priorityDefaulted() ? e.priority().name() : null,
        e.skipTheLine(),
        e.noBatch(),
        e.prNumber(),
        e.pr().title(),
        e.pr().sha(),
        e.pr().baseBranch(),
        e.pr().author(),
        readiness,
        false,
        !e.state().isFinal(),
        e.verifiedByTestRun());
  }
}
