package dev.trainyard.worker.engine;

import java.util.List;

/**
 * One rule of SCHEDULING.md's "Planning rule": the events it asks for in this state, or none when
 * it does not apply. {@link PlanningRules#ordered} lists the rules in the order they are tried.
 */
interface PlanningRule {
  List<QueueEvent> decide(QueueAggregate state, CommandContext ctx);
}
