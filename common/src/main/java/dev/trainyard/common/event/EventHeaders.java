package dev.trainyard.common.event;

/** Kafka headers of every record on {@code trainyard.events}. */
public final class EventHeaders {
  /** Stable id of the event: the {@code webhook-id} of every delivery attempt. */
  public static final String EVENT_ID = "trainyard-event-id";

  /** The organization whose subscribers receive the event. */
  public static final String ORG = "trainyard-org";

  /** The event type, e.g. {@code pull_request.submitted}, so consumers filter without parsing. */
  public static final String TYPE = "trainyard-event-type";

  private EventHeaders() {}
}
