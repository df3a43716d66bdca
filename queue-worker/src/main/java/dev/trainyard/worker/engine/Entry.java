package dev.trainyard.worker.engine;

import dev.trainyard.common.command.ImpactedTargets;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.Priority;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * One submission of a pull request to a queue. {@code priorityDefaulted} records that the submit
 * named no priority ({@code usedDefaultPriorityName}); {@code sequence} orders equal priorities by
 * submission; {@code testRunId} names the run that includes it (null while it waits for one);
 * {@code verifiedByTestRun} the run whose success merged, or will merge, it; {@code isolated} that
 * a bisection could not explain a batch's failure by its half alone, so it is tested alone until it
 * concludes (a PR that breaks only together with another must not be batched with it forever).
 * {@code submittedSha}: the head the submitter saw, when the submission said (null otherwise).
 * {@code dependsOn}: the PRs its submit said it depends on; {@code landedDependencies}: those of
 * its dependencies (named by the submit or the source host) that have landed; {@code
 * directMergeDeclined}: a direct merge of it was tried and did not hold, so it is tested the usual
 * way. {@code flakyRetried}: a run of it went red only on quarantined or flaky tests and was run
 * again ({@code TESTS_RESTARTED_FLAKY}); the next red fails it as usual. {@code stack}: it was
 * submitted with the PRs it is stacked on, which the queue submits as the host names them. {@code
 * predictedRisk}: the chance, 0 to 1, that it breaks the target, as its submitter predicted (null
 * when no one did); batches and bisection spend by it once the queue trusts its predictions ({@link
 * Batches#risk}, SCHEDULING.md "Predicted risk").
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
    String submittedSha,
    List<Long> dependsOn,
    List<Long> landedDependencies,
    boolean directMergeDeclined,
    boolean flakyRetried,
    boolean stack,
    Double predictedRisk) {

  public Entry {
    dependsOn = dependsOn == null ? List.of() : List.copyOf(dependsOn);
    landedDependencies = landedDependencies == null ? List.of() : List.copyOf(landedDependencies);
  }

  /**
   * The PRs this one must land after: those its submit named and those its source host names
   * ({@code Depends-On: #n}), without the ones that already landed here or that the host says are
   * merged (by another queue, by hand, or long ago).
   */
  public List<Long> unlandedDependencies() {
    if (dependsOn.isEmpty() && pr.dependsOn().isEmpty()) {
      return List.of(); // most PRs: read for every PR at every planning step
    }
    return Stream.concat(dependsOn.stream(), pr.dependsOn().stream())
        .distinct()
        .filter(n -> !landedDependencies.contains(n) && n != prNumber)
        .filter(n -> pr.hostDependency(n).map(d -> !d.merged()).orElse(true))
        .sorted()
        .toList();
  }

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
   * Base branch matches (or is the head of the PR it is stacked on, which it lands after),
   * mergeable, nothing on the host holds it, and impacted targets known when the queue needs them.
   */
  public boolean isReady(String targetBranch, boolean requiresImpactedTargets) {
    return (targetBranch.equals(pr.baseBranch()) || pr.stackedOn() != null)
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

  Entry withPriority(
      Priority newPriority,
      boolean defaulted,
      boolean newNoBatch,
      List<Long> newDependsOn,
      boolean withStack,
      Double newPredictedRisk) {
    Copy c = new Copy(this);
    c.priority = newPriority;
    c.priorityDefaulted = defaulted;
    c.noBatch = newNoBatch;
    c.dependsOn = newDependsOn;
    c.stack = stack || withStack;
    c.predictedRisk = newPredictedRisk;
    return c.entry();
  }

  /** The entry, waiting again after a direct merge that did not hold. */
  Entry directMergeDeclined(Instant at) {
    Copy c = new Copy(this);
    c.state = PrState.PENDING;
    c.stateChangedAt = state == PrState.PENDING ? stateChangedAt : at;
    c.testRunId = null;
    c.directMergeDeclined = true;
    return c.entry();
  }

  /** The entry knowing that {@code prNumbers}, landed now, no longer hold it back. */
  Entry withLanded(List<Long> prNumbers) {
    List<Long> landed = new ArrayList<>(landedDependencies);
    prNumbers.stream()
        .filter(n -> !landed.contains(n))
        .filter(n -> dependsOn.contains(n) || pr.dependsOn().contains(n))
        .forEach(landed::add);
    if (landed.size() == landedDependencies.size()) {
      return this;
    }
    Copy c = new Copy(this);
    c.landedDependencies = landed;
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

  /** The entry, its flaky red forgiven once. */
  Entry retriedForFlakes() {
    Copy c = new Copy(this);
    c.flakyRetried = true;
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
    private List<Long> dependsOn;
    private List<Long> landedDependencies;
    private boolean directMergeDeclined;
    private boolean flakyRetried;
    private boolean stack;
    private Double predictedRisk;

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
      dependsOn = from.dependsOn;
      landedDependencies = from.landedDependencies;
      directMergeDeclined = from.directMergeDeclined;
      flakyRetried = from.flakyRetried;
      stack = from.stack;
      predictedRisk = from.predictedRisk;
    }

    private Entry entry() {
      PrTransitions.TABLE.check(from.state, state, "#" + from.prNumber);
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
          from.submittedSha,
          dependsOn,
          landedDependencies,
          directMergeDeclined,
          flakyRetried,
          stack,
          predictedRisk);
    }
  }
}
