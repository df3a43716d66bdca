package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.QueueState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Lanes of the chain (SCHEDULING.md "Lane"). Each chain run is built on its predecessor; a lane is
 * a run whose predecessor is no longer live (its head: it lands next) and the runs built on it. In
 * single mode the whole chain is one lane. In parallel mode a PR's run is built on the latest live
 * run whose PRs' impacted targets overlap its own, so disjoint PRs test side by side; a PR that
 * overlaps two lanes at once waits until they meet or one has drained.
 */
final class Lanes {
  private Lanes() {}

  /** Where a PR's run would be built: on {@code predecessor} (null: the target), if it can be. */
  record Placement(boolean possible, TestRun predecessor) {}

  static boolean isHead(QueueAggregate state, TestRun run) {
    return !run.bisection()
        && (run.predecessorId() == null || state.runs().live(run.predecessorId()).isEmpty());
  }

  /** {@code head} and every chain run built on it, directly or not, in chain order. */
  static List<TestRun> from(List<TestRun> chain, TestRun head) {
    Set<String> members = new HashSet<>();
    members.add(head.id());
    List<TestRun> lane = new ArrayList<>();
    lane.add(head);
    for (TestRun run : chain) {
      if (run.predecessorId() != null && members.contains(run.predecessorId())) {
        members.add(run.id());
        lane.add(run);
      }
    }
    return lane;
  }

  /** The live runs {@code run} is built on, nearest first. */
  static List<TestRun> ancestors(QueueAggregate state, TestRun run) {
    List<TestRun> ancestors = new ArrayList<>();
    Optional<TestRun> next = predecessor(state, run);
    while (next.isPresent()) {
      ancestors.add(next.get());
      next = predecessor(state, next.get());
    }
    return ancestors;
  }

  /**
   * The next run to land: the first passed head of a lane (not while paused, frozen or outside
   * every merge window: {@link FollowLandingGate}).
   */
  static Optional<TestRun> landable(QueueAggregate state) {
    if (state.state() == QueueState.PAUSED || state.landingHold() != null) {
      return Optional.empty();
    }
    return passedHeads(state).stream().findFirst();
  }

  /** The passed lane head {@code runId}, if it is one (see {@link #passedHeads}). */
  static Optional<TestRun> passedHead(QueueAggregate state, String runId) {
    return passedHeads(state).stream().filter(r -> r.id().equals(runId)).findFirst();
  }

  /**
   * The passed heads of the lanes, in chain order: each may land next (more than one only in
   * parallel mode), and a landing of any of them is recorded, even while paused — the ref moved.
   */
  static List<TestRun> passedHeads(QueueAggregate state) {
    return state.runs().chain().stream()
        .filter(r -> r.state() == RunState.PASSED && isHead(state, r))
        .toList();
  }

  /**
   * A chain run with its PRs' entries, read once for many placements. A PR of the run whose entry
   * is gone has unknown targets, so the run overlaps everything.
   */
  record RunEntries(TestRun run, List<Entry> entries, boolean anyUnknown) {
    boolean overlaps(Entry entry) {
      return anyUnknown || entries.stream().anyMatch(e -> Lanes.overlaps(e, entry));
    }
  }

  static List<RunEntries> runEntries(QueueAggregate state) {
    return state.runs().chain().stream()
        .map(
            r -> {
              List<Optional<Entry>> found = r.entryIds().stream().map(state::entry).toList();
              return new RunEntries(
                  r,
                  found.stream().flatMap(Optional::stream).toList(),
                  found.stream().anyMatch(Optional::isEmpty));
            })
        .toList();
  }

  /** Where a PR can start in parallel mode (see the class comment). */
  static Placement place(QueueAggregate state, List<RunEntries> chain, Entry entry) {
    List<TestRun> overlapping =
        chain.stream().filter(r -> r.overlaps(entry)).map(RunEntries::run).toList();
    if (overlapping.isEmpty()) {
      return new Placement(true, null);
    }
    TestRun latest = overlapping.get(overlapping.size() - 1);
    List<TestRun> path = new ArrayList<>(ancestors(state, latest));
    path.add(latest);
    return path.containsAll(overlapping) ? new Placement(true, latest) : new Placement(false, null);
  }

  /**
   * Whether two PRs may share an impacted target (unknown targets overlap everything), or one
   * depends on the other: either way they share a lane.
   */
  static boolean overlaps(Entry a, Entry b) {
    return Dependencies.related(a, b)
        || a.impactedTargets() == null
        || b.impactedTargets() == null
        || a.impactedTargets().overlaps(b.impactedTargets());
  }

  private static Optional<TestRun> predecessor(QueueAggregate state, TestRun run) {
    return run.predecessorId() == null ? Optional.empty() : state.runs().live(run.predecessorId());
  }
}
