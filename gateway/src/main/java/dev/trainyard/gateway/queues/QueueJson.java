package dev.trainyard.gateway.queues;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.QueueSettings;
import dev.trainyard.common.view.PullRequestListItem;
import dev.trainyard.common.view.QueueView;
import java.time.Instant;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The getQueue / updateQueue response: settings flattened, read-only keys added. */
final class QueueJson {
  private QueueJson() {}

  static ObjectNode render(QueueView view, boolean withEnqueued) {
    ObjectNode out = Json.mapper().createObjectNode();
    out.put("state", view.state().wire());
    out.put("branch", view.branch());
    out.setAll((ObjectNode) Json.mapper().valueToTree(view.settings()));
    if (!out.has("mergeCommitMessage")) {
      out.putNull("mergeCommitMessage"); // every key always present; null: the method's default
    }
    if (!out.has("ciBudgetMinutesPerMerge")) {
      out.put("ciBudgetMinutesPerMerge", 0); // stored only when set; 0: no budget
    }
    // what CI cost per merged PR lately, against the budget above (SCHEDULING.md "A CI budget")
    out.put("ciMinutesPerMerge", view.forecast().ciMinutesPerMerge());
    out.put("overCiBudget", view.forecast().overBudget(view.settings().ciBudgetMinutesPerMerge()));
    // how well the submits' predicted risks did, and whether the queue spends by them
    out.put("predictedRiskAuc", view.forecast().predictedRiskAuc());
    out.put("predictedRiskTrusted", view.forecast().predictedRiskTrusted());
    out.put("testBranchConstructionMode", QueueSettings.TEST_BRANCH_CONSTRUCTION_MODE);
    out.putArray("batchingRules");
    out.set("freeze", Json.mapper().valueToTree(view.freeze()));
    out.put("settingsVersion", view.settings().version());
    if (withEnqueued) {
      ArrayNode enqueued = out.putArray("enqueuedPullRequests");
      Instant now = Instant.now();
      for (PullRequestListItem item : view.enqueuedPullRequests()) {
        enqueued.addPOJO(view.forecast().place(item, item.prNumber(), item.state(), now));
      }
    }
    return out;
  }
}
