package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.worker.engine.QueueEvent.TestRunCancelled;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Runs that lost a PR or their base, or whose PR the host holds, are cancelled. */
final class DropBrokenRuns implements PlanningRule {
  @Override
  public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
    return dropBrokenRuns(state, ctx.now());
  }

  /**
   * Cancels the runs that lost a PR or the run they were built on, whose PR the host now holds (a
   * draft, a review dismissed) while undecided, or whose PR now depends on one not built under it,
   * with every run built on them.
   */
  static List<QueueEvent> dropBrokenRuns(QueueAggregate state, Instant now) {
    String reason = Reasons.PREREQUISITE_MERGE_ITEM_CHANGED;
    for (TestRun run : state.runs().bisecting()) {
      if (lostPr(state, run) || heldPr(state, run) || missesDependency(state, run)) {
        return List.of(new TestRunCancelled(run.id(), reason, now));
      }
    }
    List<TestRun> chain = state.runs().chain();
    for (TestRun run : chain) {
      if (lostPr(state, run)
          || lostBase(state, run)
          || heldPr(state, run)
          || missesDependency(state, run)) {
        return cancelAll(Lanes.from(chain, run), reason, now);
      }
    }
    return List.of();
  }

  /**
   * A PR of the run depends on one that is neither landed nor built under it (in a run it was built
   * on, or ahead of it in this run): a dependency added by a resubmit or a {@code Depends-On} edit
   * while it was tested. The run is stopped, and the PR waits for its dependency. Not the run being
   * landed: its landing may be in flight on the host, and it lands as tested (as a PR read while it
   * lands is, {@code QueueEngine.observed}).
   */
  static boolean missesDependency(QueueAggregate state, TestRun run) {
    if (Lanes.landable(state).filter(r -> r.id().equals(run.id())).isPresent()) {
      return false;
    }
    List<Long> under = new ArrayList<>(run.dependentPrs());
    for (TestedPr pr : run.prs()) {
      Optional<Entry> e = state.entry(pr.entryId());
      if (e.isPresent() && !under.containsAll(Dependencies.outstanding(state, e.get()))) {
        return true;
      }
      under.add(pr.number());
    }
    return false;
  }

  /**
   * The host holds one of the run's PRs (made a draft, a review dismissed) before it passed: the
   * run is stopped and its PRs wait, not ready, instead of failing as a conflict. A run that passed
   * lands as tested; the host refuses it if it must.
   */
  static boolean heldPr(QueueAggregate state, TestRun run) {
    return run.isUndecided()
        && run.entryIds().stream()
            .map(state::entry)
            .flatMap(Optional::stream)
            .anyMatch(e -> e.pr().hold() != null);
  }

  /**
   * The run it was built on left without landing. Single mode knows the last landing only; in
   * parallel mode other lanes land in between, so a base is lost when it concluded otherwise.
   */
  static boolean lostBase(QueueAggregate state, TestRun run) {
    String base = run.predecessorId();
    Landed landed = state.runs().landed();
    if (base == null
        || run.isPromoted()
        || state.runs().live(base).isPresent()
        || (landed != null && landed.runId().equals(base))) {
      return false;
    }
    if (state.settings().mode() != QueueMode.PARALLEL) {
      return true;
    }
    return state.runs().any(base).map(r -> r.state() != RunState.SUCCEEDED).orElse(false);
  }

  static List<QueueEvent> cancelAll(List<TestRun> runs, String reason, Instant now) {
    return RunPlanner.cancelFrom(runs, 0, reason, reason, now);
  }

  static boolean lostPr(QueueAggregate state, TestRun run) {
    return run.entryIds().stream().anyMatch(id -> state.entry(id).isEmpty());
  }
}
