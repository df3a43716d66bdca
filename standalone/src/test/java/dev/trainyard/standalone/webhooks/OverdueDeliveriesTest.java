package dev.trainyard.standalone.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.trainyard.common.net.OutboundGuard;
import dev.trainyard.common.telemetry.Traces;
import dev.trainyard.common.webhook.SecretBox;
import dev.trainyard.common.webhook.WebhookDelivery;
import dev.trainyard.standalone.infra.DocumentStore;
import dev.trainyard.webhooks.delivery.DeliveryStore;
import dev.trainyard.webhooks.delivery.DeliveryTelemetry;
import dev.trainyard.webhooks.delivery.Dispatcher;
import dev.trainyard.webhooks.delivery.RetrySchedule;
import dev.trainyard.webhooks.endpoints.EndpointStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * The overdue gauge on a real document store: it reads how long ago the oldest pending delivery
 * became due, whoever holds it; a delivery whose retry waits its turn (a failing endpoint's) and an
 * ended one do not count.
 */
class OverdueDeliveriesTest {
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
  private final AtomicReference<Instant> now = new AtomicReference<>(NOW);
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private MongoClient client;
  private DeliveryStore store;
  private Dispatcher dispatcher;

  @BeforeEach
  void start() {
    client = MongoClients.create(DocumentStore.inMemory().uri("trainyard"));
    MongoTemplate mongo = new MongoTemplate(client, "trainyard");
    store = new DeliveryStore(mongo);
    dispatcher =
        new Dispatcher(
            store,
            new EndpointStore(mongo),
            new SecretBox(SecretBox.newKey()),
            new OutboundGuard(
                OutboundGuard.Policy.webhooks(true, true, List.of()), OutboundGuard.Resolver.DNS),
            now::get,
            new Dispatcher.Settings(
                RetrySchedule.parse("1h"),
                Duration.ofSeconds(5),
                8,
                Duration.ofDays(5),
                Duration.ofMinutes(1)),
            new DeliveryTelemetry(Traces.off(), meters));
  }

  @AfterEach
  void stop() {
    dispatcher.close();
    client.close();
  }

  @Test
  void readsHowLongTheOldestDueDeliveryHasWaited() {
    dispatcher.measureOverdue();
    assertThat(overdue()).as("nothing pending").isZero();

    store.enqueue(
        List.of(
            delivery("msg_retry_later", WebhookDelivery.PENDING, NOW.plus(Duration.ofMinutes(40))),
            delivery("msg_ended", WebhookDelivery.FAILED, NOW.minus(Duration.ofDays(1)))));
    dispatcher.measureOverdue();
    assertThat(overdue()).as("a retry waiting its turn, an ended delivery").isZero();

    store.enqueue(
        List.of(
            delivery("msg_due", WebhookDelivery.PENDING, NOW.minus(Duration.ofSeconds(2))),
            delivery("msg_stuck", WebhookDelivery.PENDING, NOW.minus(Duration.ofMinutes(12)))));
    dispatcher.measureOverdue();
    assertThat(overdue()).isEqualTo(720.0);

    now.set(NOW.plus(Duration.ofMinutes(1)));
    dispatcher.measureOverdue();
    assertThat(overdue()).isEqualTo(780.0);
  }

  private double overdue() {
    return meters.get("trainyard.webhook.deliveries.overdue").gauge().value();
  }

  private static WebhookDelivery delivery(String id, String status, Instant due) {
    return new WebhookDelivery(
        id,
        "ep_1",
        "acme",
        "evt_" + id,
        "pull_request.submitted",
        "{}",
        due.minus(Duration.ofMinutes(1)),
        status,
        List.of(),
        due,
        null,
        null,
        null);
  }
}
