package dev.trainyard.worker.engine;

import dev.trainyard.worker.engine.QueueEvent.ModeSwitched;
import java.util.List;

/** A mode switch applies once no run is in flight. */
final class FinishModeSwitch implements PlanningRule {
  @Override
  public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
    return finishModeSwitch(state);
  }

  /** A mode switch waiting for the runs in flight applies once none is left. */
  static List<QueueEvent> finishModeSwitch(QueueAggregate state) {
    return state.switchingTo() != null && state.runs().live().isEmpty()
        ? List.of(new ModeSwitched(state.switchingTo()))
        : List.of();
  }
}
