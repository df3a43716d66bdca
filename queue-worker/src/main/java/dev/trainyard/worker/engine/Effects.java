package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.QueueMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The effects a queue's state asks for now: build the branch of every run whose base is known; land
 * the run at the head of the chain once it passed (not while paused); delete the branches of
 * concluded runs.
 */
public final class Effects {
  private Effects() {}

  public static List<Effect> of(QueueAggregate state) {
    List<Effect> effects = new ArrayList<>();
    if (state == null) {
      return effects;
    }
    String target = state.key().branch();
    for (TestRun run : state.runs().live()) {
      if (run.direct() && run.state() == RunState.BUILDING) {
        effects.add(new Effect.CheckDirectMerge(run.id(), run.prs().get(0)));
      } else if (run.state() == RunState.BUILDING && run.failureReason() == null) {
        base(state, run)
            .ifPresent(
                base ->
                    effects.add(
                        new Effect.BuildTestBranch(
                            run.id(),
                            run.branch(target),
                            base.orElse(null),
                            run.prs(),
                            run.createdAt(),
                            state.settings().createPrsForTestingBranches(),
                            state.settings().testBranchMessage())));
      }
    }
    Lanes.landable(state)
        .ifPresent(
            head ->
                effects.add(
                    new Effect.LandRun(
                        head.id(),
                        expectedTarget(state, head),
                        head.baseSha(),
                        head.headSha(),
                        state.settings().mergeMethod(),
                        head.prs(),
                        Lanes.passedHeads(state).stream()
                            .filter(other -> !other.id().equals(head.id()))
                            .map(
                                other ->
                                    new Effect.PassedHead(
                                        other.id(),
                                        expectedTarget(state, other),
                                        other.headSha(),
                                        other.prs()))
                            .toList(),
                        state.settings().landingMessage(),
                        stackedBases(state, head.prs()))));
    for (TestRun run : state.runs().finished()) {
      effects.add(new Effect.DeleteTestBranch(run.id(), run.branch(target), run.testPrNumber()));
    }
    return effects;
  }

  /**
   * The base each PR of the run has now where it is not the queue's branch (a stacked PR's is its
   * parent's head branch until it is retargeted), by number: the landing retargets those first.
   */
  private static Map<Long, String> stackedBases(QueueAggregate state, List<TestedPr> prs) {
    Map<Long, String> bases = new LinkedHashMap<>();
    for (TestedPr pr : prs) {
      state
          .anyEntry(pr.entryId())
          .map(e -> e.pr().baseBranch())
          .filter(base -> !base.equals(state.key().branch()))
          .ifPresent(base -> bases.put(pr.number(), base));
    }
    return bases;
  }

  /**
   * What a run is built on: the target's head (an empty inner optional), the branch head of the run
   * before it, or where that run landed; empty while the run before it has no branch yet. A
   * bisection run is built where the batch it splits was.
   */
  private static Optional<Optional<String>> base(QueueAggregate state, TestRun run) {
    if (run.bisection()) {
      return Optional.of(Optional.ofNullable(run.baseSha()));
    }
    if (run.predecessorId() == null) {
      return Optional.of(Optional.empty());
    }
    Landed landed = state.runs().landed();
    if (landed != null && landed.runId().equals(run.predecessorId())) {
      return Optional.of(Optional.of(landed.targetSha()));
    }
    Optional<TestRun> predecessor = state.runs().live(run.predecessorId());
    if (predecessor.isEmpty() && state.settings().mode() == QueueMode.PARALLEL) {
      return Optional.of(Optional.empty()); // it landed, and other lanes landed after it
    }
    return predecessor.map(TestRun::headSha).map(Optional::of);
  }

  /**
   * The head run lands on where the run before it landed, or on the target head it was built on. In
   * parallel mode other lanes land in between: it lands on wherever the last landing left the
   * target, replaying its own PRs there. A promoted half lands where its batch would have.
   */
  static String expectedTarget(QueueAggregate state, TestRun head) {
    if (head.isPromoted()) {
      return head.landsOn();
    }
    Landed landed = state.runs().landed();
    if (state.settings().mode() == QueueMode.PARALLEL && landed != null) {
      return landed.targetSha();
    }
    if (head.predecessorId() != null
        && landed != null
        && landed.runId().equals(head.predecessorId())) {
      return landed.targetSha();
    }
    return head.baseSha();
  }
}
