package dev.trainyard.worker.engine;

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
}
