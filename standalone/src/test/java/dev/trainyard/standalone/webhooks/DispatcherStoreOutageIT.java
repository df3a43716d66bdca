package dev.trainyard.standalone.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.event.EventHeaders;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.json.Timestamps;
import dev.trainyard.common.topic.Topics;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.GatedStoreInfrastructure;
import dev.trainyard.standalone.support.Infrastructure;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.TcpGate;
import dev.trainyard.standalone.support.TestStack;
import dev.trainyard.standalone.support.WebhookReceiver;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The webhook dispatcher's intake with its store gone for 20 s mid-flow: the events it reads then
 * cannot be recorded, so their offsets stay uncommitted while it retries; once the store is back,
 * every event is delivered, none of them under two webhook-ids (issue 14, "at least once").
 */
class DispatcherStoreOutageIT extends OwnStack {
  private static final int EVENTS = 10;

  @Override
  protected Supplier<Infrastructure> infrastructure() {
    return GatedStoreInfrastructure::new;
  }

  @Test
  void eventsReadWhileTheStoreIsAwayAreAllDeliveredOnceItIsBack() throws Exception {
    TcpGate store = ((GatedStoreInfrastructure) stack.infrastructure()).gate();
    try (WebhookReceiver receiver = new WebhookReceiver()) {
      Api.Response endpoint =
          stack.api().post("/v1/webhooks/createEndpoint", "{\"url\":\"" + receiver.url() + "\"}");
      assertThat(endpoint.status()).as(endpoint.body()).isEqualTo(200);
      Thread.sleep(1_000); // events must happen after the endpoint was created
      List<String> events =
          IntStream.range(0, EVENTS).mapToObj(i -> "evt_" + UUID.randomUUID()).toList();

      store.shut();
      publish(events);
      Thread.sleep(20_000);
      assertThat(receiver.received()).as("nothing can be recorded, so nothing is sent").isEmpty();
      store.open();

      Awaitility.await()
          .atMost(QueueSteps.PATIENCE)
          .pollInterval(Duration.ofMillis(200))
          .until(() -> deliveredEvents(receiver), delivered -> delivered.containsAll(events));
      Map<String, Set<String>> idsByEvent =
          receiver.received().stream()
              .collect(
                  Collectors.groupingBy(
                      r -> eventOf(r.body()),
                      Collectors.mapping(r -> r.header("webhook-id"), Collectors.toSet())));
      assertThat(idsByEvent).hasSize(EVENTS);
      assertThat(idsByEvent.values()).allSatisfy(ids -> assertThat(ids).hasSize(1));
    }
  }

  private static final String DETAILS = "http://127.0.0.1/ui/events/";

  private void publish(List<String> events) {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.infrastructure().kafkaBootstrap());
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
      for (String id : events) {
        // an event as the worker writes one; its id rides in its details URL, where eventOf
        // finds it (the receiver holds every delivery to the document)
        String body =
            "{\"type\":\"pull_request.submitted\",\"action\":\"submitted\","
                + "\"status\":\"not_ready\",\"author\":\"ada\",\"http_details_url\":\""
                + DETAILS
                + id
                + "\",\"pr_number\":1,\"repository\":{\"host\":\"github.com\",\"owner\":\"acme\","
                + "\"name\":\"rocket\"},\"target_branch\":\"main\",\"timestamp\":\""
                + Timestamps.format(Instant.now())
                + "\"}";
        ProducerRecord<String, String> record =
            new ProducerRecord<>(Topics.EVENTS, TestStack.ORG, body);
        record.headers().add(EventHeaders.ORG, bytes(TestStack.ORG));
        record.headers().add(EventHeaders.TYPE, bytes("pull_request.submitted"));
        record.headers().add(EventHeaders.EVENT_ID, bytes(id));
        producer.send(record);
      }
      producer.flush();
    }
  }

  private static Set<String> deliveredEvents(WebhookReceiver receiver) {
    return receiver.received().stream()
        .filter(r -> r.answeredWith() / 100 == 2)
        .map(r -> eventOf(r.body()))
        .collect(Collectors.toSet());
  }

  private static String eventOf(String body) {
    return Json.mapper()
        .readTree(body)
        .get("http_details_url")
        .asString()
        .substring(DETAILS.length());
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
