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
 * {@code submittedSha}: the head the submitter saw, when the submission said (null otherwise).
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
    boolean isolated,
    String submittedSha) {

  public boolean skipTheLine() {
    return priority.skipsTheLine();
  }

  /** The head this submission is for: what the source host showed, else what the submitter saw. */
  public String knownHead() {
    return !pr.sha().isEmpty() ? pr.sha() : submittedSha;
  }

  public boolean hasImpactedTargets() {
    return impactedTargets != null;
  }

  /**
   * Base branch matches, mergeable, nothing on the host holds it, and impacted targets known when
   * the queue needs them.
   */
  public boolean isReady(String targetBranch, boolean requiresImpactedTargets) {
    return targetBranch.equals(pr.baseBranch())
        && mergeability == Mergeability.MERGEABLE
        && pr.hold() == null
        && (!requiresImpactedTargets || hasImpactedTargets());
  }

  Entry withState(PrState next, Instant at) {
    Copy c = new Copy(this);
    c.state = next;
    c.stateChangedAt = at;
    return c.entry();
  }

  Entry withPriority(Priority newPriority, boolean defaulted, boolean newNoBatch) {
    Copy c = new Copy(this);
    c.priority = newPriority;
    c.priorityDefaulted = defaulted;
    c.noBatch = newNoBatch;
    return c.entry();
  }

  Entry withObservation(PullRequestInfo observed, Mergeability observedMergeability) {
    Copy c = new Copy(this);
    c.pr = observed;
    c.mergeability = observedMergeability;
    return c.entry();
  }

  Entry withImpactedTargets(ImpactedTargets targets) {
    Copy c = new Copy(this);
    c.impactedTargets = targets;
    return c.entry();
  }

  /** The entry in {@code runId} (or, with null, waiting for a run again), in {@code next} state. */
  Entry inRun(String runId, PrState next, Instant at) {
    Copy c = new Copy(this);
    c.state = next;
    c.stateChangedAt = next == state ? stateChangedAt : at;
    c.testRunId = runId;
    return c.entry();
  }

  /** The entry, tested alone from now on. */
  Entry alone() {
    Copy c = new Copy(this);
    c.isolated = true;
    return c.entry();
  }

  Entry verifiedBy(String runId, Instant at) {
    Copy c = new Copy(this);
    c.state = PrState.TESTS_PASSED;
    c.stateChangedAt = at;
    c.verifiedByTestRun = runId;
    return c.entry();
  }

  /** The fields a transition may change, copied from an entry; the submission itself is fixed. */
  private static final class Copy {
    private final Entry from;
    private Priority priority;
    private boolean priorityDefaulted;
    private boolean noBatch;
    private PrState state;
    private Instant stateChangedAt;
    private PullRequestInfo pr;
    private Mergeability mergeability;
    private ImpactedTargets impactedTargets;
    private String verifiedByTestRun;
    private String testRunId;
    private boolean isolated;

    private Copy(Entry from) {
      this.from = from;
      priority = from.priority;
      priorityDefaulted = from.priorityDefaulted;
      noBatch = from.noBatch;
      state = from.state;
      stateChangedAt = from.stateChangedAt;
      pr = from.pr;
      mergeability = from.mergeability;
      impactedTargets = from.impactedTargets;
      verifiedByTestRun = from.verifiedByTestRun;
      testRunId = from.testRunId;
      isolated = from.isolated;
    }

    private Entry entry() {
      return new Entry(
          from.id,
          from.prNumber,
          from.sequence,
          priority,
          priorityDefaulted,
          noBatch,
          state,
          stateChangedAt,
          from.submittedAt,
          pr,
          mergeability,
          impactedTargets,
          verifiedByTestRun,
          testRunId,
          isolated,
          from.submittedSha);
    }
  }
}
