package dev.trainyard.worker.engine;

import dev.trainyard.common.command.ImpactedTargets;
import dev.trainyard.common.queue.CancellationReason;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.Priority;
import dev.trainyard.common.queue.QueueFreeze;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.QueueSettings;
import dev.trainyard.common.queue.QueueState;
import java.time.Instant;
import java.util.List;

/** What happened to a queue. Events are past tense and never change meaning once released. */
public sealed interface QueueEvent {

  record QueueCreated(QueueKey key, QueueSettings settings, Instant at) implements QueueEvent {}

  record QueueUpdated(QueueSettings settings, QueueState state) implements QueueEvent {}

  record QueueDeleted() implements QueueEvent {}

  /**
   * Why the source host cannot serve the queue's repository now (no adapter serves it, the remote
   * could not be fetched), or null once it can: the reason its not-ready PRs show.
   */
  record SourceProblemChanged(String problem) implements QueueEvent {}

  /**
   * The source host refused to land run {@code runId}: {@code message} in its words, kept on the
   * queue until a run lands.
   */
  record LandingRefused(String runId, String message) implements QueueEvent {}

  /** The source host's required checks for the target branch changed (API.md §6). */
  record RequiredChecksChanged(RequiredChecks checks) implements QueueEvent {}

  record PullRequestSubmitted(Entry entry) implements QueueEvent {}

  /**
   * A PR already in the queue was submitted again: its priority, noBatch, the dependencies its
   * submit names and its predicted risk (the one the submit gave, else the one it had) are
   * refreshed; {@code stack}: submitted again with its stack (it stays so once asked).
   */
  record PullRequestResubmitted(
      String entryId,
      Priority priority,
      boolean priorityDefaulted,
      boolean noBatch,
      List<Long> dependsOn,
      boolean stack,
      Double predictedRisk)
      implements QueueEvent {
    public PullRequestResubmitted(
        String entryId,
        Priority priority,
        boolean priorityDefaulted,
        boolean noBatch,
        List<Long> dependsOn) {
      this(entryId, priority, priorityDefaulted, noBatch, dependsOn, false, null);
    }
  }

  /** The PR became ready and waits for a test slot ({@code pull_request.queued}). */
  record PullRequestQueued(String entryId, String queuedReason, Instant at) implements QueueEvent {}

  /** The PR lost readiness before testing and waits for it again. */
  record PullRequestNotReady(String entryId, Instant at) implements QueueEvent {}

  /**
   * {@code causePr}: the PR whose failure or cancellation cancelled this one ({@code
   * DEPENDENCY_FAILED}: a PR it depends on or is stacked on), else null.
   */
  record PullRequestCancelled(String entryId, CancellationReason reason, Instant at, Long causePr)
      implements QueueEvent {
    public PullRequestCancelled(String entryId, CancellationReason reason, Instant at) {
      this(entryId, reason, at, null);
    }
  }

  /** Targets recorded for a queued PR ({@code entryId}) or for one not submitted yet (null). */
  record ImpactedTargetsRecorded(long prNumber, String entryId, String sha, ImpactedTargets targets)
      implements QueueEvent {}

  record TestsRestarted(String entryId, Instant at) implements QueueEvent {}

  /** The source host showed new facts about a queued PR. */
  record PullRequestObserved(String entryId, PullRequestInfo pr, Mergeability mergeability)
      implements QueueEvent {}

  /** An update changed the mode while runs are in flight: it applies once they are done. */
  record ModeSwitchRequested(QueueMode mode) implements QueueEvent {}

  /** The runs in flight are done: the requested mode applies and the queue runs again. */
  record ModeSwitched(QueueMode mode) implements QueueEvent {}

  /** A run joined the end of the chain; its branch is to be built. */
  record TestRunStarted(TestRun run) implements QueueEvent {}

  /** The run's branch exists; its PRs are {@code testing}. */
  record TestBranchBuilt(
      String runId, String baseSha, String headSha, Instant at, Long testPrNumber)
      implements QueueEvent {}

  /** A PR of the run did not merge onto the base and the PRs before it. */
  record TestBranchConflicted(String runId, long prNumber) implements QueueEvent {}

  /** CI reported on a commit: a run's head, or one no run has claimed yet. */
  record StatusReported(String sha, RunStatus status) implements QueueEvent {}

  /** Every required status is green: the run's PRs are {@code tests_passed}. */
  record TestRunPassed(String runId, Instant at) implements QueueEvent {}

  /** Red while runs ahead are undecided: its PRs are {@code pending_failure}. */
  record TestRunWentRed(String runId, String reason, Instant at) implements QueueEvent {}

  /** Red with nothing ahead to explain it: its PRs are {@code failed}. */
  record TestRunFailed(String runId, String reason, Instant at) implements QueueEvent {}

  /**
   * A red batch is split in two {@code halves} (bisection runs waiting for slots); its PRs are
   * {@code pending} again ({@code BISECTION_REQUIRED}), never failed for the batch's result.
   */
  record TestRunBisected(String runId, String reason, List<TestRun> halves, Instant at)
      implements QueueEvent {}

  /**
   * A bisection run passed where its batch would have landed, with nothing landed since and no
   * chain run waiting: it joins the chain as its passed head and lands as it was tested; its PRs
   * are {@code tests_passed}.
   */
  record BisectionHalfPassed(String runId, Instant at) implements QueueEvent {}

  /** A waiting bisection run took a slot: its branch is to be built. */
  record BisectionRunStarted(String runId, Instant at) implements QueueEvent {}

  /**
   * A bisection run passed: its PRs are innocent and wait for a run of the chain again; {@code
   * isolated} when the other half passed too, so the batch's failure stays unexplained and these
   * PRs are tested alone from now on.
   */
  record TestRunCleared(String runId, boolean isolated, Instant at) implements QueueEvent {}

  /**
   * A red run is vindicated by {@code byRunId}, a green run behind it that contains its changes
   * (optimistic merge): its PRs are {@code tests_passed}, verified by that run.
   */
  record TestRunRescued(String runId, String byRunId, Instant at) implements QueueEvent {}

  /** The run landed: the target is at {@code targetSha}; its PRs are {@code merged}. */
  record TestRunMerged(String runId, String targetSha, Instant at) implements QueueEvent {}

  /**
   * The source host landed only the first PRs of the batch run, {@code merged} (the target is at
   * {@code targetSha}), then refused the next: those are {@code merged}; the rest wait again, each
   * to be tested alone ({@code queued_reason} {@code queuedReason}).
   */
  record TestRunPartlyMerged(
      String runId, List<Long> merged, String targetSha, String queuedReason, Instant at)
      implements QueueEvent {}

  /**
   * An upload of test results for the run's head: {@code failedTests} failed, {@code unexcused} of
   * them neither quarantined nor excused by a flake on record ({@link TestFailures}). {@code runId}
   * null: for a commit no live run has; the queue only learns that its CI uploads results.
   */
  record TestResultsRecorded(String runId, int failedTests, int unexcused, Instant at)
      implements QueueEvent {}

  /**
   * The red run failed only on quarantined or excused flaky tests, and none of its PRs was run
   * again for that before: they are, once ({@code TESTS_RESTARTED_FLAKY}, with the run's
   * cancellation that follows); the next red fails them as usual.
   */
  record FlakyFailureForgiven(String runId, Instant at) implements QueueEvent {}

  /** The run stopped; its PRs still queued wait for a new run ({@code queuedReason}). */
  record TestRunCancelled(String runId, String queuedReason, Instant at) implements QueueEvent {}

  /**
   * A landing found the target moved by someone else, to {@code targetSha}: later landings start
   * there (parallel lanes land on wherever the target is).
   */
  record TargetMoved(String targetSha) implements QueueEvent {}

  /**
   * {@code freezeQueue}: nothing lands until unfrozen or {@code freeze.until} ({@code
   * queue.frozen}).
   */
  record QueueFrozen(QueueFreeze freeze, Instant at) implements QueueEvent {}

  /**
   * The freeze ended: {@code unfreezeQueue}, or its {@code until} passed ({@code expired}) ({@code
   * queue.unfrozen}).
   */
  record QueueUnfrozen(boolean expired, Instant at) implements QueueEvent {}

  /**
   * Whether landing may happen changed: {@code hold} says why it may not (frozen, outside every
   * merge window), null when it may again.
   */
  record LandingHoldChanged(String hold) implements QueueEvent {}

  /**
   * A direct merge did not hold (its PR lacks the target's head, or its own statuses are not
   * green): the run stops and its PR waits for a run of the usual kind ({@code queuedReason}).
   */
  record DirectMergeDeclined(String runId, String queuedReason, Instant at) implements QueueEvent {}

  /** A concluded run's branch is gone. */
  record TestBranchDeleted(String runId) implements QueueEvent {}
}
