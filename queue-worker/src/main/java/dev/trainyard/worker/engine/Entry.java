package dev.trainyard.worker.engine;

import dev.trainyard.common.command.ImpactedTargets;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.Priority;
import java.time.Instant;

/**
 * One submission of a pull request to a queue. {@code priorityDefaulted} records that the submit
 * named no priority ({@code usedDefaultPriorityName}); {@code sequence} orders equal priorities by
 * submission; {@code testRunId} names the run that includes it (null while it waits for one);
 * {@code verifiedByTestRun} the run whose success merged, or will merge, it; {@code isolated} that
 * a bisection could not explain a batch's failure by its half alone, so it is tested alone until it
 * concludes (a PR that breaks only together with another must not be batched with it forever).
 */
public record Entry(
    String id,
    long prNumber,
    long sequence,
    Priority priority,
    boolean priorityDefaulted,
    boolean noBatch,
    PrState state,
    Instant stateChangedAt,
    Instant submittedAt,
    PullRequestInfo pr,
    Mergeability mergeability,
    ImpactedTargets impactedTargets,
    String verifiedByTestRun,
    String testRunId,
    boolean isolated) {

  public boolean skipTheLine() {
    return priority.skipsTheLine();
  }

  public boolean hasImpactedTargets() {
    return impactedTargets != null;
  }

  /** Base branch matches, mergeable, and impacted targets known when the queue needs them. */
  public boolean isReady(String targetBranch, boolean requiresImpactedTargets) {
    return targetBranch.equals(pr.baseBranch())
        && mergeability == Mergeability.MERGEABLE
        && (!requiresImpactedTargets || hasImpactedTargets());
  }

  Entry withState(PrState next, Instant at) {
    return new Entry(
        id,
        prNumber,
        sequence,
        priority,
        priorityDefaulted,
        noBatch,
        next,
        at,
        submittedAt,
        pr,
        mergeability,
        impactedTargets,
        verifiedByTestRun,
        testRunId,
        isolated);
  }

  Entry withPriority(Priority newPriority, boolean defaulted, boolean newNoBatch) {
    return new Entry(
        id,
        prNumber,
        sequence,
        newPriority,
        defaulted,
        newNoBatch,
        state,
        stateChangedAt,
        submittedAt,
        pr,
        mergeability,
        impactedTargets,
        verifiedByTestRun,
        testRunId,
        isolated);
  }

  Entry withObservation(PullRequestInfo observed, Mergeability observedMergeability) {
    return new Entry(
        id,
        prNumber,
        sequence,
        priority,
        priorityDefaulted,
        noBatch,
        state,
        stateChangedAt,
        submittedAt,
        observed,
        observedMergeability,
        impactedTargets,
        verifiedByTestRun,
        testRunId,
        isolated);
  }

  Entry withImpactedTargets(ImpactedTargets targets) {
    return new Entry(
        id,
        prNumber,
        sequence,
        priority,
        priorityDefaulted,
        noBatch,
        state,
        stateChangedAt,
        submittedAt,
        pr,
        mergeability,
        targets,
        verifiedByTestRun,
        testRunId,
        isolated);
  }

  /** The entry in {@code runId} (or, with null, waiting for a run again), in {@code next} state. */
  Entry inRun(String runId, PrState next, Instant at) {
    return new Entry(
        id,
        prNumber,
        sequence,
        priority,
        priorityDefaulted,
        noBatch,
        next,
        next == state ? stateChangedAt : at,
        submittedAt,
        pr,
        mergeability,
        impactedTargets,
        verifiedByTestRun,
        runId,
        isolated);
  }

  /** The entry, tested alone from now on. */
  Entry alone() {
    return new Entry(
        id,
        prNumber,
        sequence,
        priority,
        priorityDefaulted,
        noBatch,
        state,
        stateChangedAt,
        submittedAt,
        pr,
        mergeability,
        impactedTargets,
        verifiedByTestRun,
        testRunId,
        true);
  }

  Entry verifiedBy(String runId, Instant at) {
    return new Entry(
        id,
        prNumber,
        sequence,
        priority,
        priorityDefaulted,
        noBatch,
        PrState.TESTS_PASSED,
        at,
        submittedAt,
        pr,
        mergeability,
        impactedTargets,
        runId,
        testRunId,
        isolated);
  }
}
