package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.view.WaitCode;
import dev.trainyard.common.view.WaitingFor;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Why each PR in line waits for a test run (SCHEDULING.md "Why a PR waits"), decided by the same
 * rules that start runs, on the state a command left: the queue starts none (paused, a mode switch
 * waiting); a PR it depends on is not in a run; in parallel mode, its lanes are full; otherwise the
 * next run's PRs wait for a slot (or for their batch to fill), the PRs the predicted risks split
 * off that batch wait for the run after it, and the others for the PRs ahead of them.
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
    Set<String> startable = new HashSet<>();
    waiting.forEach(e -> startable.add(e.id()));
    if (state.settings().mode() == QueueMode.PARALLEL) {
      waiting.forEach(e -> codes.put(e.id(), WaitCode.LANES));
    } else if (!waiting.isEmpty()) {
      Batches.Next next = Batches.next(state, waiting);
      boolean slotFree = RunPlanner.slotFree(state.runs().chain(), RunPlanner.window(state));
      boolean filling = slotFree && !next.entries().isEmpty() && !next.startsAt(now);
      if (filling) {
        batchUntil = next.waitUntil();
      }
      next.cut().forEach(e -> codes.put(e.id(), WaitCode.RISK_SPLIT));
      next.entries()
          .forEach(
              e ->
                  codes.put(
                      e.id(), filling ? WaitCode.BATCH : code(state, e, WaitingFor.TEST_SLOT)));
      waiting.forEach(e -> codes.putIfAbsent(e.id(), code(state, e, WaitingFor.RUNS_AHEAD)));
    }
    StringBuilder text = new StringBuilder(line.size());
    for (Entry e : line) {
      WaitCode code = codes.get(e.id());
      if (code == null) {
        code = unplanned(e, starts, startable);
      }
      text.append(code.code());
    }
    return new Waits(text.toString(), batchUntil);
  }

  /** A PR no run rule looked at: in a run, not ready, or held by its dependencies or the queue. */
  private static WaitCode unplanned(Entry e, boolean starts, Set<String> startable) {
    if (e.testRunId() != null) {
      return WaitCode.IN_RUN;
    }
    if (e.state() != PrState.PENDING || startable.contains(e.id())) {
      return WaitCode.NONE;
    }
    return starts ? WaitCode.DEPENDENCIES : WaitCode.QUEUE_PAUSED;
  }

  /** {@code reason}, marked with why the PR runs alone when the queue batches and it will. */
  private static WaitCode code(QueueAggregate state, Entry e, WaitingFor reason) {
    if (!state.settings().batch() || !Batches.alone(e)) {
      return WaitCode.of(reason, WaitCode.Alone.NO);
    }
    boolean byFlag = e.noBatch() || e.isolated();
    return WaitCode.of(reason, byFlag ? WaitCode.Alone.BY_FLAG : WaitCode.Alone.BY_RISK);
  }
}
