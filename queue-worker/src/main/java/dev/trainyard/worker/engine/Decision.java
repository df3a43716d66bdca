package dev.trainyard.worker.engine;

import java.util.List;

/** The engine's answer to one command: the events it causes, or the rejection. */
public record Decision(List<QueueEvent> events, Rejection rejection) {
  public Decision {
    events = List.copyOf(events);
  }

  static Decision accept(List<QueueEvent> events) {
    return new Decision(events, null);
  }

  static Decision reject(Rejection rejection) {
    return new Decision(List.of(), rejection);
  }

  public boolean isAccepted() {
    return rejection == null;
  }
}
