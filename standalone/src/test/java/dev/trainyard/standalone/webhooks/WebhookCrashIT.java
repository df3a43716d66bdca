package dev.trainyard.standalone.webhooks;

import static dev.trainyard.standalone.support.Api.prBody;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.ShowsLogOnFailure;
import dev.trainyard.standalone.support.StandaloneProcess;
import dev.trainyard.standalone.support.WebhookReceiver;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The standalone process killed (SIGKILL) while webhook deliveries wait in their retry schedule,
 * then started again on the same data: every event still arrives, each under its one webhook-id.
 */
@ExtendWith(ShowsLogOnFailure.class)
class WebhookCrashIT {
  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path data;

  @Test
  void deliveriesWaitingForARetrySurviveAKill() throws Exception {
    int port = StandaloneProcess.freePort();
    Map<String, String> env = Map.of("TRAINYARD_WEBHOOK_RETRY_SCHEDULE", "1s,1s,1s,1s,1s,1s,1s");
    String repo = Api.uniqueRepo();
    try (WebhookReceiver receiver = new WebhookReceiver()) {
      receiver.answer(n -> 503);
      StandaloneProcess first = StandaloneProcess.start(data, port, env);
      Api api = new Api("http://127.0.0.1:" + port, first.awaitToken());
      try {
        assertThat(
                api.post("/v1/webhooks/createEndpoint", "{\"url\":\"" + receiver.url() + "\"}")
                    .status())
            .isEqualTo(200);
        QueueSteps.create(api, repo, 1);
        for (long pr = 1; pr <= 5; pr++) {
          QueueSteps.submit(api, repo, pr);
        }
        assertThat(api.post("/v1/cancelPullRequest", prBody(repo, 5)).status()).isEqualTo(200);
        // all six events are in the delivery log and some wait for a retry; the endpoint's circuit
        // may hold back the first attempt of others, which is why the log is counted, not attempts
        Awaitility.await()
            .atMost(QueueSteps.PATIENCE)
            .ignoreExceptions()
            .until(() -> logged(api), n -> n == 6);
        Awaitility.await()
            .atMost(QueueSteps.PATIENCE)
            .until(() -> ids(receiver, 503).size(), n -> n > 0);
      } finally {
        first.kill();
      }

      receiver.answer(n -> 200);
      StandaloneProcess second = StandaloneProcess.start(data, port, env);
      try {
        second.awaitToken();
        Set<String> failedBefore = ids(receiver, 503);
        Awaitility.await()
            .atMost(QueueSteps.PATIENCE)
            .until(() -> ids(receiver, 200), delivered -> delivered.containsAll(failedBefore));
        assertThat(ids(receiver, 200)).hasSize(6);
      } finally {
        assertThat(second.stop()).isTrue();
      }
    }
  }

  /** How many deliveries the log holds (one page: far more than the test makes). */
  private static int logged(Api api) {
    return api.post("/v1/webhooks/listDeliveries", "{\"take\":100}")
        .json()
        .get("deliveries")
        .size();
  }

  private static Set<String> ids(WebhookReceiver receiver, int answeredWith) {
    return receiver.received().stream()
        .filter(r -> r.answeredWith() == answeredWith)
        .map(r -> r.header("webhook-id"))
        .collect(Collectors.toSet());
  }
}
