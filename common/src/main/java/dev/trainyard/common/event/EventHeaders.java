package dev.trainyard.common.event;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/** Kafka headers of every record on {@code trainyard.events}. */
public final class EventHeaders {
  /** Stable id of the event: the {@code webhook-id} of every delivery attempt. */
  public static final String EVENT_ID = "trainyard-event-id";

  /** The organization whose subscribers receive the event. */
  public static final String ORG = "trainyard-org";

  /** The event type, e.g. {@code pull_request.submitted}, so consumers filter without parsing. */
  public static final String TYPE = "trainyard-event-type";

  private EventHeaders() {}

  /** The text of {@code record}'s last header {@code name}; null when it has none. */
  public static String value(ConsumerRecord<?, ?> record, String name) {
    Header header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }
}
