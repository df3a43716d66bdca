package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.view.WaitCode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Why each PR in line waits for a test run (SCHEDULING.md "Why a PR waits"), decided by the rules
 * that start runs ({@link StartRuns}, {@link Batches}) on the state a command left: the queue
 * starts none (paused, a mode switch waiting); its bisection run waits for a slot; a PR it depends
 * on is not in a run of the chain; in parallel mode, what {@link StartRuns#startParallel} meets (a
 * full lane, a lane held for a PR spanning it, targets spanning lanes, an earlier overlapping PR);
 * otherwise the next run's PRs wait for a slot (or for their batch to fill, or, while CI spends
 * past the queue's budget, for enough runs ahead to pass or leave that {@link SpeculationPrice}
 * finds their run worth its CI), the PRs the predicted risks split off that batch for later runs,
 * and the others for the PRs ahead of them.
 */
final class WaitReasons {
  private WaitReasons() {}

  /** What {@link Forecast} stores of the waits: one code per PR of {@code line}, and a deadline. */
  record Waits(String codes, Instant batchUntil) {}

  static Waits of(QueueAggregate state, List<Entry> line, Instant now) {
    Map<String, WaitCode> codes = new HashMap<>();
    Instant batchUntil = null;
    boolean starts = RunPlanner.canStart(state);
    List<Entry> waiting = starts ? RunPlanner.waiting(state) : List.of();
    if (state.settings().mode() == QueueMode.PARALLEL) {
      parallel(state, waiting, codes);
    } else if (!waiting.isEmpty()) {
      Batches.Next next = Batches.next(state, waiting);
      boolean slotFree = RunPlanner.slotFree(state.runs().chain(), RunPlanner.window(state));
      boolean filling = slotFree && !next.entries().isEmpty() && !next.startsAt(now);
      boolean priced =
          slotFree && !filling && !SpeculationPrice.worthStarting(state, next.entries());
      batchUntil = next.waitUntil();
      next.cut().forEach(e -> codes.put(e.id(), WaitCode.RISK_SPLIT));
      for (Entry e : next.entries()) {
        codes.put(
            e.id(),
            filling
                ? WaitCode.BATCH
                : priced
                    ? WaitCode.TEST_SLOT_PRICED
                    : code(
                        state,
                        e,
                        WaitCode.TEST_SLOT,
                        WaitCode.TEST_SLOT_ALONE,
                        WaitCode.TEST_SLOT_RISKY));
      }
      for (Entry e : waiting) {
        codes.putIfAbsent(
            e.id(),
            code(
                state,
                e,
                WaitCode.RUNS_AHEAD,
                WaitCode.RUNS_AHEAD_ALONE,
                WaitCode.RUNS_AHEAD_RISKY));
      }
    }
    StringBuilder text = new StringBuilder(line.size());
    for (Entry e : line) {
      text.append(codes.getOrDefault(e.id(), unplanned(state, e, starts)).code());
    }
    return new Waits(text.toString(), batchUntil);
  }

  /**
   * What {@link StartRuns#startParallel} meets for each waiting PR, in queue order: an earlier
   * waiting PR it overlaps holds it; else it spans lanes; else its lane has no free slot; else (it
   * could start, and did not) a PR spanning its lane holds it.
   */
  private static void parallel(
      QueueAggregate state, List<Entry> waiting, Map<String, WaitCode> codes) {
    List<Lanes.RunEntries> runs = Lanes.runEntries(state);
    List<Entry> earlier = new ArrayList<>();
    for (Entry e : waiting) {
      WaitCode code;
      if (earlier.stream().anyMatch(b -> Lanes.overlaps(b, e))) {
        code = WaitCode.OVERLAPPED;
      } else {
        Lanes.Placement at = Lanes.place(state, runs, e);
        if (!at.possible()) {
          code = WaitCode.SPANS_LANES;
        } else if (!RunPlanner.slotFree(
            StartRuns.lane(state, at.predecessor()), RunPlanner.window(state))) {
          code = WaitCode.LANES;
        } else {
          code = WaitCode.LANES_HELD;
        }
      }
      codes.put(e.id(), code);
      earlier.add(e);
    }
  }

  /** A PR no run rule looked at: in a run, not ready, or held by its dependencies or the queue. */
  private static WaitCode unplanned(QueueAggregate state, Entry e, boolean starts) {
    Optional<TestRun> run = Optional.ofNullable(e.testRunId()).flatMap(id -> state.runs().live(id));
    if (run.isPresent()) {
      return switch (run.get().state()) {
        case WAITING -> WaitCode.BISECTION;
        case BUILDING, TESTING -> WaitCode.IN_RUN;
        default -> WaitCode.DECIDED;
      };
    }
    if (e.state() != PrState.PENDING || e.testRunId() != null) {
      return WaitCode.NONE;
    }
    return starts ? WaitCode.DEPENDENCIES : WaitCode.QUEUE_PAUSED;
  }

  /** The code of a PR that runs in a batch, or alone by a flag, or alone by its predicted risk. */
  private static WaitCode code(
      QueueAggregate state, Entry e, WaitCode batched, WaitCode byFlag, WaitCode byRisk) {
    if (!state.settings().batch() || !Batches.alone(state, e)) {
      return batched;
    }
    return e.noBatch() || e.isolated() ? byFlag : byRisk;
  }
}
