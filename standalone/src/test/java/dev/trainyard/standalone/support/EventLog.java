package dev.trainyard.standalone.support;

import dev.trainyard.common.event.EventHeaders;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.topic.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import tools.jackson.databind.JsonNode;

/** Reads everything on {@code trainyard.events}, as a webhook dispatcher would see it. */
public final class EventLog {
  private EventLog() {}

  /** A published event: its id header, type header and body. */
  public record Event(String id, String type, JsonNode body) {}

  public static List<Event> readAll(String bootstrap) {
    Map<String, Object> config =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            ConsumerConfig.GROUP_ID_CONFIG,
            "test-" + UUID.randomUUID(),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest",
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            StringDeserializer.class,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            StringDeserializer.class);
    List<Event> events = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
      consumer.subscribe(List.of(Topics.EVENTS));
      int emptyPolls = 0;
      while (emptyPolls < 3) {
        var records = consumer.poll(Duration.ofSeconds(1));
        emptyPolls = records.isEmpty() ? emptyPolls + 1 : 0;
        for (ConsumerRecord<String, String> r : records) {
          events.add(
              new Event(
                  EventHeaders.value(r, EventHeaders.EVENT_ID),
                  EventHeaders.value(r, EventHeaders.TYPE),
                  Json.mapper().readTree(r.value())));
        }
      }
    }
    return events;
  }
}
