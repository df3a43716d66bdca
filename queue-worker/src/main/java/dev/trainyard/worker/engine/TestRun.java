package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.TestBranches;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One speculative build: the target head, the runs ahead of it in the chain ({@code predecessorId},
 * null when built on the target itself; their PRs are {@code dependentPrs}) and its own PRs (one,
 * or a batch). {@code baseSha} and {@code headSha} are known once its branch is built.
 *
 * <p>A {@code bisection} run tests half of a failed batch on the commit that batch was built on
 * ({@code baseSha}, known from the start); {@code predecessorId} names the failed run it splits. It
 * is outside the chain. {@code landsOn} is where its batch would have landed when it was split: a
 * green half lands there as it was tested while nothing landed since and the chain is empty (it is
 * {@linkplain #promoted promoted} to the chain's passed head); otherwise it clears its PRs, which
 * queue again (SCHEDULING.md "Batching and bisection").
 *
 * <p>{@code testPrNumber}: the draft pull request the source host opened for its branch ({@code
 * createPrsForTestingBranches}), null without one. {@code direct}: a direct merge ({@link
 * #direct}), which has no branch. {@code testFailures}: what the flaky-tests service's uploads for
 * its head said of its failed tests (null: nothing yet).
 */
public record TestRun(
    String id,
    List<TestedPr> prs,
    List<Long> dependentPrs,
    String predecessorId,
    RunState state,
    Instant createdAt,
    Instant stateChangedAt,
    String baseSha,
    String headSha,
    List<RunStatus> statuses,
    String failureReason,
    boolean bisection,
    Long testPrNumber,
    boolean direct,
    String landsOn,
    TestFailures testFailures) {

  public TestRun {
    prs = List.copyOf(prs);
    dependentPrs = List.copyOf(dependentPrs);
    statuses = List.copyOf(statuses);
  }

  static TestRun started(
      String id, List<TestedPr> prs, List<Long> dependentPrs, String predecessorId, Instant at) {
    return fresh(id, prs, dependentPrs, predecessorId, at, false);
  }

  /**
   * A direct merge of one PR ({@code directMergeMode} {@code always}): no branch is built; its head
   * is the PR's own, which must contain the target's head, and CI's statuses on it decide.
   */
  static TestRun direct(String id, TestedPr pr, Instant at) {
    return fresh(id, List.of(pr), List.of(), null, at, true);
  }

  private static TestRun fresh(
      String id,
      List<TestedPr> prs,
      List<Long> dependentPrs,
      String predecessorId,
      Instant at,
      boolean direct) {
    return new TestRun(
        id,
        prs,
        dependentPrs,
        predecessorId,
        RunState.BUILDING,
        at,
        at,
        null,
        null,
        List.of(),
        null,
        false,
        null,
        direct,
        null,
        null);
  }

  /**
   * Half of a failed run, waiting for a bisection slot; it is built on {@code baseSha}, and lands
   * on {@code landsOn} if it may ({@link TestRun}).
   */
  static TestRun half(String id, List<TestedPr> prs, TestRun failed, String landsOn, Instant at) {
    return waiting(id, prs, failed.dependentPrs(), failed.id(), failed.baseSha(), landsOn, at);
  }

  /**
   * A red bisection run tested again (SCHEDULING.md "Flake-aware failures"): the same PRs, split
   * from the same run, built and landing where it was, so its sibling and the bisection's order
   * read it as the run it replaces.
   */
  static TestRun again(String id, TestRun red, Instant at) {
    return waiting(
        id, red.prs(), red.dependentPrs(), red.predecessorId(), red.baseSha(), red.landsOn(), at);
  }

  private static TestRun waiting(
      String id,
      List<TestedPr> prs,
      List<Long> dependentPrs,
      String predecessorId,
      String baseSha,
      String landsOn,
      Instant at) {
    return new TestRun(
        id,
        prs,
        dependentPrs,
        predecessorId,
        RunState.WAITING,
        at,
        at,
        baseSha,
        null,
        List.of(),
        null,
        true,
        null,
        false,
        landsOn,
        null);
  }

  /** A waiting bisection run takes its slot: it is built from {@code at} on. */
  TestRun startedAt(Instant at) {
    RunTransitions.TABLE.check(state, RunState.BUILDING, id);
    return new TestRun(
        id,
        prs,
        dependentPrs,
        predecessorId,
        RunState.BUILDING,
        at,
        at,
        baseSha,
        null,
        List.of(),
        null,
        bisection,
        null,
        false,
        landsOn,
        null);
  }

  /**
   * A green half that lands as it was tested: the chain's passed head, built where its batch was
   * and landing on {@code landsOn}. It keeps {@code predecessorId}, the batch it was split from.
   */
  TestRun promoted(Instant at) {
    RunTransitions.TABLE.check(state, RunState.PASSED, id);
    return new TestRun(
        id,
        prs,
        dependentPrs,
        predecessorId,
        RunState.PASSED,
        createdAt,
        at,
        baseSha,
        headSha,
        statuses,
        failureReason,
        false,
        testPrNumber,
        false,
        landsOn,
        testFailures);
  }

  /** A green half of a failed batch that joined the chain to land as tested. */
  public boolean isPromoted() {
    return !bisection && landsOn != null;
  }

  /** More than one PR: the run is a batch ({@code batched} in events). */
  public boolean isBatch() {
    return prs.size() > 1;
  }

  /** Building or testing: no verdict yet. */
  public boolean isUndecided() {
    return state == RunState.BUILDING || state == RunState.TESTING;
  }

  /** {@code trainyard-merge/<targetBranch>/<id>}, without {@code refs/heads/}. */
  public String branch(String targetBranch) {
    return TestBranches.name(targetBranch, id);
  }

  public boolean contains(String entryId) {
    return prs.stream().anyMatch(p -> p.entryId().equals(entryId));
  }

  public List<String> entryIds() {
    return prs.stream().map(TestedPr::entryId).toList();
  }

  TestRun built(String base, String head, Instant at, Long testPr) {
    RunTransitions.TABLE.check(state, RunState.TESTING, id);
    return new TestRun(
        id,
        prs,
        dependentPrs,
        predecessorId,
        RunState.TESTING,
        createdAt,
        at,
        base,
        head,
        statuses,
        failureReason,
        bisection,
        testPr,
        direct,
        landsOn,
        testFailures);
  }

  TestRun withState(RunState next, String reason, Instant at) {
    RunTransitions.TABLE.check(state, next, id);
    return copy(next, at, baseSha, headSha, statuses, reason != null ? reason : failureReason);
  }

  /** The same run with {@code status} replacing any earlier report of its context. */
  TestRun withStatus(RunStatus status) {
    List<RunStatus> next = new ArrayList<>();
    for (RunStatus s : statuses) {
      if (!s.sameCheck(status.context(), status.appId())) {
        next.add(s);
      }
    }
    next.add(status);
    return copy(state, stateChangedAt, baseSha, headSha, next, failureReason);
  }

  /** A build that hit a conflict: red with that reason, without a branch. */
  TestRun conflicted() {
    return copy(
        state, stateChangedAt, baseSha, headSha, statuses, Reasons.START_TEST_RUN_MERGE_CONFLICT);
  }

  /** This run with what may change replaced; what it tests never does. */
  private TestRun copy(
      RunState newState,
      Instant changedAt,
      String base,
      String head,
      List<RunStatus> newStatuses,
      String reason) {
    return new TestRun(
        id,
        prs,
        dependentPrs,
        predecessorId,
        newState,
        createdAt,
        changedAt,
        base,
        head,
        newStatuses,
        reason,
        bisection,
        testPrNumber,
        direct,
        landsOn,
        testFailures);
  }

  /** This run knowing more of its failed tests: an upload of {@code failed}, {@code unexcused}. */
  TestRun withTestResults(int failed, int unexcused) {
    return new TestRun(
        id,
        prs,
        dependentPrs,
        predecessorId,
        state,
        createdAt,
        stateChangedAt,
        baseSha,
        headSha,
        statuses,
        failureReason,
        bisection,
        testPrNumber,
        direct,
        landsOn,
        TestFailures.after(testFailures, failed, unexcused));
  }
}
