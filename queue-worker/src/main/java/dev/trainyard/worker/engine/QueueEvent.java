package dev.trainyard.worker.engine;

import dev.trainyard.common.command.ImpactedTargets;
import dev.trainyard.common.queue.CancellationReason;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.Priority;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.QueueSettings;
import dev.trainyard.common.queue.QueueState;
import java.time.Instant;

/** What happened to a queue. Events are past tense and never change meaning once released. */
public sealed interface QueueEvent {

  record QueueCreated(QueueKey key, QueueSettings settings, Instant at) implements QueueEvent {}

  record QueueUpdated(QueueSettings settings, QueueState state) implements QueueEvent {}

  record QueueDeleted() implements QueueEvent {}

  record PullRequestSubmitted(Entry entry) implements QueueEvent {}

  /** A PR already in the queue was submitted again: its priority and noBatch are refreshed. */
  record PullRequestResubmitted(
      String entryId, Priority priority, boolean priorityDefaulted, boolean noBatch)
      implements QueueEvent {}

  /** The PR became ready and waits for a test slot ({@code pull_request.queued}). */
  record PullRequestQueued(String entryId, String queuedReason, Instant at) implements QueueEvent {}

  /** The PR lost readiness before testing and waits for it again. */
  record PullRequestNotReady(String entryId, Instant at) implements QueueEvent {}

  record PullRequestCancelled(String entryId, CancellationReason reason, Instant at)
      implements QueueEvent {}

  /** Targets recorded for a queued PR ({@code entryId}) or for one not submitted yet (null). */
  record ImpactedTargetsRecorded(long prNumber, String entryId, String sha, ImpactedTargets targets)
      implements QueueEvent {}

  record TestsRestarted(String entryId, Instant at) implements QueueEvent {}

  /** The source host showed new facts about a queued PR. */
  record PullRequestObserved(String entryId, PullRequestInfo pr, Mergeability mergeability)
      implements QueueEvent {}
}
