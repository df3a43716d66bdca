package dev.trainyard.webhooks.intake;

import dev.trainyard.common.event.EventHeaders;
import dev.trainyard.common.telemetry.Traces;
import dev.trainyard.common.webhook.WebhookDelivery;
import dev.trainyard.common.webhook.WebhookEndpoint;
import dev.trainyard.webhooks.delivery.ChatMessages;
import dev.trainyard.webhooks.delivery.DeliveryStore;
import dev.trainyard.webhooks.delivery.Dispatcher;
import dev.trainyard.webhooks.endpoints.EndpointStore;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;

/**
 * Turns each event into one delivery per endpoint of its organization that wants its type and
 * existed when it happened, in the endpoint's format ({@link ChatMessages}), and records them
 * before the offsets are committed. A delivery's id is derived from the event and the endpoint, so
 * an event read twice is recorded once.
 */
public class EventIntake {
  public static final String ID = "webhook-intake";
  private static final Logger log = LoggerFactory.getLogger(EventIntake.class);
  private final EndpointStore endpoints;
  private final DeliveryStore deliveries;
  private final Dispatcher dispatcher;
  private final InstantSource clock;
  private final String publicUrl;

  public EventIntake(
      EndpointStore endpoints,
      DeliveryStore deliveries,
      Dispatcher dispatcher,
      InstantSource clock,
      String publicUrl) {
    this.endpoints = endpoints;
    this.deliveries = deliveries;
    this.dispatcher = dispatcher;
    this.clock = clock;
    this.publicUrl = publicUrl;
  }

  @KafkaListener(
      id = ID,
      topics = "#{@topicNames.events()}",
      groupId = "${trainyard.webhook.group-id:#{@topicNames.group('webhook-dispatcher')}}",
      batch = "true")
  public void onEvents(List<ConsumerRecord<String, String>> records) {
    Instant now = clock.instant();
    Map<String, List<WebhookEndpoint>> byOrg = new HashMap<>();
    List<WebhookDelivery> added = new ArrayList<>();
    for (ConsumerRecord<String, String> record : records) {
      String org = EventHeaders.value(record, EventHeaders.ORG);
      String type = EventHeaders.value(record, EventHeaders.TYPE);
      String eventId = EventHeaders.value(record, EventHeaders.EVENT_ID);
      if (org == null || type == null || eventId == null) {
        log.warn("skipping an event without its headers at offset {}", record.offset());
        continue;
      }
      Instant happened = Instant.ofEpochMilli(record.timestamp());
      for (WebhookEndpoint endpoint : byOrg.computeIfAbsent(org, endpoints::enabled)) {
        if (endpoint.wants(type) && !happened.isBefore(endpoint.createdAt())) {
          added.add(
              new WebhookDelivery(
                  deliveryId(eventId, endpoint.id()),
                  endpoint.id(),
                  org,
                  eventId,
                  type,
                  ChatMessages.body(
                      endpoint.chatFormat(), record.value(), type, endpoint.mentions(), publicUrl),
                  now,
                  WebhookDelivery.PENDING,
                  List.of(),
                  now,
                  null,
                  happened,
                  Traces.header(record.headers())));
        }
      }
    }
    deliveries.enqueue(added);
    if (!added.isEmpty()) {
      dispatcher.wake();
    }
  }

  /** The {@code webhook-id}: the same for every attempt, and for the event read again. */
  static String deliveryId(String eventId, String endpointId) {
    UUID id = UUID.nameUUIDFromBytes((eventId + "/" + endpointId).getBytes(StandardCharsets.UTF_8));
    return "msg_" + id.toString().replace("-", "");
  }
}
