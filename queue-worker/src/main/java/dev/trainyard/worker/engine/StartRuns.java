package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.DirectMergeMode;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.worker.engine.QueueEvent.TestRunStarted;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A run starts for the next waiting PRs (one, or a batch) while a lane has a free slot. */
final class StartRuns implements PlanningRule {
  private final Duration spanBarrier;

  StartRuns(Duration spanBarrier) {
    this.spanBarrier = spanBarrier;
  }

  @Override
  public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
    return RunPlanner.canStart(state) ? start(state, ctx, spanBarrier) : List.of();
  }

  /**
   * Starts one run for the next waiting PRs when a slot is free: in single mode on top of the last
   * chain run (a batch when batching); in parallel mode see {@link #startParallel}.
   */
  static List<QueueEvent> start(QueueAggregate state, CommandContext ctx, Duration spanBarrier) {
    if (state.settings().mode() == QueueMode.PARALLEL) {
      return startParallel(state, ctx, spanBarrier);
    }
    if (!RunPlanner.slotFree(state.runs().chain(), RunPlanner.window(state))) {
      return List.of();
    }
    Optional<TestRun> direct = direct(state, ctx, RunPlanner.waiting(state), state.runs().chain());
    if (direct.isPresent()) {
      return List.of(new TestRunStarted(direct.get()));
    }
    Batches.Next next = Batches.next(state, RunPlanner.waiting(state));
    if (!next.startsAt(ctx.now()) || !SpeculationPrice.worthStarting(state, next.entries())) {
      return List.of();
    }
    List<TestRun> chain = state.runs().chain();
    TestRun predecessor = chain.isEmpty() ? null : chain.get(chain.size() - 1);
    return List.of(new TestRunStarted(run(state, ctx, next.entries(), predecessor)));
  }

  /**
   * The first waiting PR that can start, in queue order, alone: on the latest run it overlaps (a
   * new lane when it overlaps none). A PR that overlaps two lanes, or a lane without a free slot,
   * waits, and so does every PR behind it that overlaps it, so none overtakes a PR it depends on. A
   * PR that has waited {@code spanBarrier} for lanes it spans becomes a barrier: no PR behind it
   * joins those lanes, so they drain and it starts, however busy unrelated arrivals keep them
   * (SCHEDULING.md "Parallel mode").
   */
  static List<QueueEvent> startParallel(
      QueueAggregate state, CommandContext ctx, Duration spanBarrier) {
    List<Lanes.RunEntries> runs = Lanes.runEntries(state);
    List<Entry> blocked = new ArrayList<>();
    List<Lanes.RunEntries> barred = new ArrayList<>(); // the runs of lanes a barrier spans
    for (Entry e : RunPlanner.waiting(state)) {
      Lanes.Placement at =
          blocked.stream().anyMatch(b -> Lanes.overlaps(b, e))
                  || barred.stream().anyMatch(r -> r.overlaps(e))
              ? null
              : Lanes.place(state, runs, e);
      if (at != null && at.possible()) {
        TestRun predecessor = at.predecessor();
        List<TestRun> lane = lane(state, predecessor);
        if (RunPlanner.slotFree(lane, RunPlanner.window(state))) {
          TestRun run =
              direct(state, ctx, List.of(e), lane)
                  .filter(d -> blocked.isEmpty())
                  .orElseGet(() -> run(state, ctx, List.of(e), predecessor));
          return List.of(new TestRunStarted(run));
        }
      }
      blocked.add(e);
      if (at != null && !at.possible() && spanBarrierDue(e, spanBarrier, ctx.now())) {
        // it spans lanes (it was placed and could not be) and has waited enough
        runs.stream().filter(r -> r.overlaps(e) && !barred.contains(r)).forEach(barred::add);
      }
    }
    return List.of();
  }

  /** The lane a PR built on {@code predecessor} joins: none when it starts a lane of its own. */
  static List<TestRun> lane(QueueAggregate state, TestRun predecessor) {
    return predecessor == null
        ? List.of()
        : Lanes.from(state.runs().chain(), root(state, predecessor));
  }

  private static boolean spanBarrierDue(Entry e, Duration spanBarrier, Instant now) {
    return spanBarrier != null && !e.stateChangedAt().plus(spanBarrier).isAfter(now);
  }

  /**
   * A direct merge of the first waiting PR ({@code directMergeMode} {@code always}, API.md §3):
   * only when nothing is ahead of it in its lane and no direct merge of it failed to hold before.
   * Whether its head contains the target's head is the source host's to say ({@link
   * Effect.CheckDirectMerge}); its own statuses then decide as a run's would.
   */
  static Optional<TestRun> direct(
      QueueAggregate state, CommandContext ctx, List<Entry> waiting, List<TestRun> lane) {
    if (state.settings().directMergeMode() != DirectMergeMode.ALWAYS
        || !lane.isEmpty()
        || waiting.isEmpty()
        || waiting.get(0).directMergeDeclined()) {
      return Optional.empty();
    }
    Entry e = waiting.get(0);
    return Optional.of(
        TestRun.direct(
            ctx.derivedId("run/" + state.nextSequence()).toString(), new TestedPr(e), ctx.now()));
  }

  static TestRun root(QueueAggregate state, TestRun run) {
    List<TestRun> ancestors = Lanes.ancestors(state, run);
    return ancestors.isEmpty() ? run : ancestors.get(ancestors.size() - 1);
  }

  /** A run of {@code entries} built on {@code predecessor}: it contains the PRs of that path. */
  static TestRun run(
      QueueAggregate state, CommandContext ctx, List<Entry> entries, TestRun predecessor) {
    List<Long> dependent = new ArrayList<>();
    if (predecessor != null) {
      List<TestRun> path = new ArrayList<>(Lanes.ancestors(state, predecessor));
      java.util.Collections.reverse(path);
      path.add(predecessor);
      path.forEach(r -> r.prs().forEach(p -> dependent.add(p.number())));
    }
    List<TestedPr> prs = entries.stream().map(TestedPr::new).toList();
    return TestRun.started(
        ctx.derivedId("run/" + state.nextSequence()).toString(),
        prs,
        dependent,
        predecessor == null ? null : predecessor.id(),
        ctx.now());
  }

  /**
   * When a partial batch stops waiting for more PRs, if one waits and may then start: a batch the
   * speculation price holds has none, since only a command (a verdict, a landing) frees it, and a
   * deadline kept past would have the queue ticked and counted overdue until then.
   */
  static Optional<Instant> batchDeadline(QueueAggregate state) {
    if (!RunPlanner.canStart(state)
        || state.settings().mode() == QueueMode.PARALLEL
        || !RunPlanner.slotFree(state.runs().chain(), RunPlanner.window(state))) {
      return Optional.empty();
    }
    Batches.Next next = Batches.next(state, RunPlanner.waiting(state));
    return SpeculationPrice.worthStarting(state, next.entries())
        ? Optional.ofNullable(next.waitUntil())
        : Optional.empty();
  }
}
