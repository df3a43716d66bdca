package dev.trainyard.worker.store;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.trainyard.common.view.PullRequestRow;
import dev.trainyard.common.view.TestRunDocument;
import java.util.List;
import java.util.UUID;

/**
 * What one version of a queue still has to publish: history rows, test-run documents, public
 * events, and the answers to the commands of its batch ({@link AnswerStore}: stored before any of
 * them is sent; in the outbox, they are durable with the version that gave them). Written before
 * the queue document that names it, deleted once published; its id is the writer's own (a random
 * part besides the queue and version), so an outbox of a writer that lost the version race, or of a
 * fenced worker deciding the same commands again after the winner published and deleted its outbox,
 * is never the one a queue names: it is deleted, never published.
 */
public record Outbox(
    @JsonProperty("_id") String id,
    String queueId,
    String org,
    long version,
    List<PullRequestRow> rows,
    List<TestRunDocument> runs,
    List<OutboxEvent> events,
    List<Answer> answers) {

  public Outbox {
    rows = List.copyOf(rows);
    runs = runs == null ? List.of() : List.copyOf(runs);
    events = List.copyOf(events);
    answers = answers == null ? List.of() : List.copyOf(answers);
  }

  /** A fresh id for a version of {@code queueId}: no other writer's outbox has it. */
  public static String newId(String queueId, long version) {
    return queueId + "@" + version + "@" + UUID.randomUUID();
  }
}
