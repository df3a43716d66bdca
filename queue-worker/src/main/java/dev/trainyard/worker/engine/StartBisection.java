package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.OptimizationMode;
import dev.trainyard.common.queue.QueueState;
import dev.trainyard.worker.engine.QueueEvent.BisectionRunStarted;
import java.time.Instant;
import java.util.List;

/** Waiting bisection halves start, up to {@code bisectionConcurrency}; not while paused. */
final class StartBisection implements PlanningRule {
  @Override
  public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
    return state.state() == QueueState.PAUSED ? List.of() : startBisection(state, ctx.now());
  }

  /**
   * Starts the oldest waiting bisection run while fewer than {@code bisectionConcurrency} are built
   * or tested. When skipping redundant tests, a second half waits for the first: if that one
   * passes, the second is known red without a run of its own.
   */
  static List<QueueEvent> startBisection(QueueAggregate state, Instant now) {
    List<TestRun> bisecting = state.runs().bisecting();
    // a red half waiting for its test results holds no CI, as a chain run with a verdict does not
    long running = bisecting.stream().filter(TestRun::isUndecided).count();
    if (running >= Math.max(1, state.settings().bisectionConcurrency())) {
      return List.of();
    }
    boolean sequential =
        state.settings().optimizationMode() == OptimizationMode.BISECTION_SKIP_REDUNDANT_TESTS;
    return bisecting.stream()
        .filter(r -> r.state() == RunState.WAITING)
        .filter(r -> !sequential || firstHalfDecided(bisecting, r))
        .findFirst()
        .<List<QueueEvent>>map(r -> List.of(new BisectionRunStarted(r.id(), now)))
        .orElse(List.of());
  }

  /**
   * No half split from the same run is ahead of {@code half}: it is the first, or the first left.
   */
  static boolean firstHalfDecided(List<TestRun> bisecting, TestRun half) {
    for (TestRun r : bisecting) {
      if (r.id().equals(half.id())) {
        return true;
      }
      if (r.predecessorId().equals(half.predecessorId())) {
        return false;
      }
    }
    return true;
  }
}
