package dev.trainyard.worker.projection;

import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.view.PullRequestListItem;
import dev.trainyard.common.view.PullRequestView;
import dev.trainyard.common.view.QueueView;
import dev.trainyard.common.view.Readiness;
import dev.trainyard.worker.engine.Dependencies;
import dev.trainyard.worker.engine.Entry;
import dev.trainyard.worker.engine.Forecast;
import dev.trainyard.worker.engine.QueueAggregate;
import java.time.Instant;
import java.util.List;

/** The read-model shapes of queues and pull requests, built from engine state. */
public final class Views {
  private Views() {}

  /** The queue as getQueue shows it, with where its PRs stand as of {@code now}. */
  public static QueueView queue(QueueAggregate queue, Instant now) {
    List<PullRequestListItem> enqueued =
        queue.inQueueOrder().stream().map(e -> pullRequest(queue, e).listItem()).toList();
    return new QueueView(
        queue.state(),
        queue.key().branch(),
        queue.settings(),
        queue.freeze(),
        enqueued,
        Forecast.of(queue, now));
  }

  public static PullRequestView pullRequest(QueueAggregate queue, Entry e) {
    Readiness readiness =
        new Readiness(
            e.hasImpactedTargets(),
            queue.settings().requiresImpactedTargets(),
            queue.key().branch().equals(e.pr().baseBranch()),
            e.mergeability(),
            e.state() == PrState.NOT_READY ? notReadyReason(queue, e) : null);
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
        e.verifiedByTestRun(),
        e.unlandedDependencies(),
        e.predictedRisk());
  }

  /** One sentence: the first reason, in the order the planner's readiness rule checks them. */
  static String notReadyReason(QueueAggregate queue, Entry e) {
    String branch = queue.key().branch();
    if (queue.sourceProblem() != null) {
      return queue.sourceProblem();
    }
    if (queue.checksProblem() != null) {
      return "the target branch's required checks cannot be read: " + queue.checksProblem();
    }
    if (e.pr().sha().isEmpty()) {
      return "the source host has not reported pull request #" + e.prNumber() + " yet";
    }
    if (!branch.equals(e.pr().baseBranch()) && e.pr().stackedOn() == null) {
      return "its base branch is " + e.pr().baseBranch() + ", not the queue's branch " + branch;
    }
    if (e.mergeability() == Mergeability.NOT_MERGEABLE) {
      return "it does not merge cleanly into " + branch;
    }
    if (e.mergeability() != Mergeability.MERGEABLE) {
      return "its mergeability is not known yet";
    }
    if (e.pr().hold() != null) {
      return e.pr().hold();
    }
    if (queue.settings().requiresImpactedTargets() && !e.hasImpactedTargets()) {
      return "no impacted targets were uploaded for its head commit, and the queue runs in"
          + " parallel mode";
    }
    return Dependencies.problem(queue, e).orElse("it is ready and waits for the queue to re-plan");
  }
}
