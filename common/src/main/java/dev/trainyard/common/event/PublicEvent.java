package dev.trainyard.common.event;

/** A webhook body of API.md §7: a flat JSON object whose {@code type} names the event. */
public interface PublicEvent {
  String type();
}
