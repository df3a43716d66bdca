package dev.trainyard.standalone.queue;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.Api.prBody;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.EmbeddedInfrastructure;
import dev.trainyard.standalone.support.IndexCoverage;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.ShowsLogOnFailure;
import dev.trainyard.standalone.support.WebhookReceiver;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every query the services send while a queue lands pull requests, its history and metrics are
 * read, a webhook endpoint delivers and the admin lists dead commands, is served by a declared
 * index: the store reports each query no index serves (MongoDB's {@code notablescan}), and there is
 * none. The indexes are those the services declare, built in the background at their start.
 */
@ExtendWith(ShowsLogOnFailure.class)
class IndexCoverageIT extends QueueScenario {

  /** Every periodic sweep runs several times while the scenario does. */
  @Override
  protected Map<String, Object> properties() {
    Map<String, Object> props = new HashMap<>(super.properties());
    props.put("trainyard.worker.effect-sweep-interval", "500ms");
    return props;
  }

  @Test
  void everyQueryOfALandingQueueIsServedByADeclaredIndex() throws Exception {
    IndexCoverage.Watch watch =
        IndexCoverage.watch((EmbeddedInfrastructure) stack.infrastructure());

    try (WebhookReceiver receiver = new WebhookReceiver()) {
      assertThat(
              api.post(
                      "/v1/webhooks/createEndpoint",
                      "{\"url\":\"" + receiver.url() + "\",\"eventTypes\":[\"pull_request.*\"]}")
                  .status())
          .isEqualTo(200);
      QueueSteps.create(api, name, 2);
      QueueSteps.landPrs(api, git, name, 3);
      Awaitility.await().atMost(QueueSteps.PATIENCE).until(() -> receiver.received().size() >= 3);

      List<String> reads = new ArrayList<>();
      reads.add(api.post("/v1/listPullRequests", body(name, "")).body());
      reads.add(api.post("/v1/listPullRequests", body(name, "\"state\":\"MERGED\"")).body());
      reads.add(api.post("/v1/getSubmittedPullRequest", prBody(name, 2)).body());
      reads.add(api.post("/v1/getMergeQueueTestingDetails", prBody(name, 3)).body());
      reads.add(api.post("/v1/getMergeQueueMetrics", body(name, "")).body());
      reads.add(api.post("/v1/getQueue", body(name, "")).body());
      reads.add(api.post("/v1/webhooks/listEndpoints", "{}").body());
      reads.add(api.post("/v1/webhooks/listDeliveries", "{}").body());
      reads.add(stack.admin().post("/admin/v1/listDeadCommands", "{}").body());
      assertThat(reads).hasSize(9);
    }

    assertThat(watch.unindexed()).as("queries no declared index serves").isEmpty();
  }
}
