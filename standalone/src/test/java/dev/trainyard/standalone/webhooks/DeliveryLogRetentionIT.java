package dev.trainyard.standalone.webhooks;

import static dev.trainyard.standalone.support.QueueSteps.create;
import static dev.trainyard.standalone.support.QueueSteps.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.WebhookReceiver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The delivery log is kept to {@code TRAINYARD_WEBHOOK_LOG_RETENTION} (here 3 s): deliveries that
 * ended leave it once older than that, while one still waiting in its retry schedule stays.
 */
class DeliveryLogRetentionIT extends OwnStack {

  @Override
  protected Map<String, Object> properties() {
    return Map.of(
        "trainyard.webhook.log-retention", "3s",
        "trainyard.webhook.log-prune-interval", "500ms",
        "trainyard.webhook.retry-schedule", "1h,1h");
  }

  @Test
  void endedDeliveriesLeaveTheLogAfterTheRetentionAndPendingOnesStay() throws Exception {
    Api api = stack.api();
    try (WebhookReceiver ok = new WebhookReceiver();
        WebhookReceiver down = new WebhookReceiver()) {
      down.answer(n -> 500);
      String delivered = endpoint(api, ok);
      String waiting = endpoint(api, down);
      String repo = Api.uniqueRepo();
      create(api, repo, 1);
      submit(api, repo, 1);

      Awaitility.await()
          .atMost(QueueSteps.PATIENCE)
          .until(
              () ->
                  log(api, delivered).stream()
                          .anyMatch(d -> d.get("status").asString().equals("delivered"))
                      && log(api, waiting).stream().anyMatch(d -> !d.get("attempts").isEmpty()));

      Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(250))
          .until(() -> log(api, delivered).isEmpty());
      Thread.sleep(1_000); // past the retention, with pruning rounds between
      assertThat(log(api, waiting))
          .as("a delivery waiting for its retry is never pruned")
          .isNotEmpty()
          .allMatch(d -> d.get("status").asString().equals("pending"));
    }
  }

  private static String endpoint(Api api, WebhookReceiver receiver) {
    Api.Response created =
        api.post("/v1/webhooks/createEndpoint", "{\"url\":\"" + receiver.url() + "\"}");
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    return created.json().get("id").asString();
  }

  private static List<JsonNode> log(Api api, String endpointId) {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode d :
        api.post("/v1/webhooks/listDeliveries", "{\"endpointId\":\"" + endpointId + "\"}")
            .json()
            .get("deliveries")) {
      out.add(d);
    }
    return out;
  }
}
