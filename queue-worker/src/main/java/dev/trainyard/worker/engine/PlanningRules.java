package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.QueueState;
import java.time.Duration;
import java.util.List;

/**
 * The planning rules of SCHEDULING.md "Planning rule", one class each, in the order the engine
 * tries them after every accepted command: it applies the events of the first rule that has any and
 * starts again from the top, until no rule has any. SCHEDULING.md lists the same classes in the
 * same order ({@code PlanningRulesTest} checks it). Landing a passed run is not a rule: it is the
 * shell's effect, derived from the state ({@link Effects}).
 */
final class PlanningRules {
  private PlanningRules() {}

  /**
   * @param settle {@code TRAINYARD_STATUS_SETTLE} (see {@link CheckRule.Reported})
   */
  static List<PlanningRule> ordered(Duration settle) {
    return ordered(settle, QueueEngine.SPAN_BARRIER);
  }

  /**
   * @param spanBarrier how long a parallel queue's PR spanning lanes waits before the lanes drain
   *     for it (null: never, only to measure what the barrier is worth)
   */
  static List<PlanningRule> ordered(Duration settle, Duration spanBarrier) {
    return List.of(
        new FollowLandingGate(),
        new CancelDependents(),
        new FollowReadiness(),
        new CancelStale(),
        new DropBrokenRuns(),
        new RecordVerdicts(settle),
        new ConcludeHeads(),
        new FinishModeSwitch(),
        new SkipTheLine(),
        new StartBisection(),
        new StartRuns(spanBarrier));
  }

  /** Whether landing is held follows the clock: a freeze, a merge window ({@link LandingGate}). */
  static final class FollowLandingGate implements PlanningRule {
    @Override
    public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
      return LandingGate.plan(state, ctx.now());
    }
  }

  /** A PR whose dependency failed or was cancelled is cancelled ({@code DEPENDENCY_FAILED}). */
  static final class CancelDependents implements PlanningRule {
    @Override
    public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
      return Planner.cancelDependents(state, ctx.now());
    }
  }

  /** PRs that wait for a run move between {@code not_ready} and {@code pending}. */
  static final class FollowReadiness implements PlanningRule {
    @Override
    public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
      return Planner.followReadiness(state, ctx.now());
    }
  }

  /** A PR {@code not_ready} for longer than {@code notReadyTimeoutHours} is cancelled. */
  static final class CancelStale implements PlanningRule {
    @Override
    public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
      return Planner.cancelStale(state, ctx.now());
    }
  }

  /** Runs that lost a PR or their base, or whose PR the host holds, are cancelled. */
  static final class DropBrokenRuns implements PlanningRule {
    @Override
    public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
      return RunPlanner.dropBrokenRuns(state, ctx.now());
    }
  }

  /** A run's statuses decide it: passed, red, a green half landing or cleared. */
  static final class RecordVerdicts implements PlanningRule {
    private final Duration settle;

    RecordVerdicts(Duration settle) {
      this.settle = settle;
    }

    @Override
    public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
      return RunPlanner.verdicts(state, ctx, settle);
    }
  }

  /** Red heads fail (a batch is bisected) or are rescued by a green run behind them. */
  static final class ConcludeHeads implements PlanningRule {
    @Override
    public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
      return RunPlanner.concludeHeads(state, ctx);
    }
  }

  /** A mode switch applies once no run is in flight. */
  static final class FinishModeSwitch implements PlanningRule {
    @Override
    public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
      return RunPlanner.finishModeSwitch(state);
    }
  }

  /** An urgent PR goes to the front: runs that would be ahead of it are cancelled. */
  static final class SkipTheLine implements PlanningRule {
    @Override
    public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
      return RunPlanner.canStart(state) ? RunPlanner.skipTheLine(state, ctx.now()) : List.of();
    }
  }

  /** Waiting bisection halves start, up to {@code bisectionConcurrency}; not while paused. */
  static final class StartBisection implements PlanningRule {
    @Override
    public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
      return state.state() == QueueState.PAUSED
          ? List.of()
          : RunPlanner.startBisection(state, ctx.now());
    }
  }

  /** A run starts for the next waiting PRs (one, or a batch) while a lane has a free slot. */
  static final class StartRuns implements PlanningRule {
    private final Duration spanBarrier;

    StartRuns(Duration spanBarrier) {
      this.spanBarrier = spanBarrier;
    }

    @Override
    public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
      return RunPlanner.canStart(state) ? RunPlanner.start(state, ctx, spanBarrier) : List.of();
    }
  }
}
