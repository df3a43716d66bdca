package dev.trainyard.worker.engine;

import java.util.List;

/**
 * The engine's answer to one command: the events it causes, or the rejection. {@code unsettled}:
 * the planning rules did not reach a fixed point (a broken rule); the command's own events are
 * accepted without the planning's, so the queue goes on taking commands, and the shell reports it.
 */
public record Decision(List<QueueEvent> events, Rejection rejection, boolean unsettled) {
  public Decision {
    events = List.copyOf(events);
  }

  public Decision(List<QueueEvent> events, Rejection rejection) {
    this(events, rejection, false);
  }

  static Decision accept(List<QueueEvent> events) {
    return new Decision(events, null);
  }

  static Decision reject(Rejection rejection) {
    return new Decision(List.of(), rejection);
  }

  /** The command's own events, without planning that did not settle. */
  static Decision unsettled(List<QueueEvent> events) {
    return new Decision(events, null, true);
  }

  public boolean isAccepted() {
    return rejection == null;
  }
}
