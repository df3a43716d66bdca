package dev.trainyard.worker.store;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.trainyard.common.view.PullRequestRow;
import dev.trainyard.common.view.TestRunDocument;
import java.util.List;

/**
 * What one version of a queue still has to publish: history rows, test-run documents and public
 * events. Written before the queue document that names it, deleted once published; its id carries
 * the writer's first command id, so an outbox of a writer that lost the version race is never the
 * one a queue names.
 */
public record Outbox(
    @JsonProperty("_id") String id,
    String queueId,
    String org,
    long version,
    List<PullRequestRow> rows,
    List<TestRunDocument> runs,
    List<OutboxEvent> events) {

  public Outbox {
    rows = List.copyOf(rows);
    runs = runs == null ? List.of() : List.copyOf(runs);
    events = List.copyOf(events);
  }

  public static String id(String queueId, long version, String firstCommandId) {
    return queueId + "@" + version + "@" + firstCommandId;
  }
}
