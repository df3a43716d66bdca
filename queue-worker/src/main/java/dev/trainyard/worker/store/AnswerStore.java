package dev.trainyard.worker.store;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.UpdateOptions;
import dev.trainyard.common.command.RejectionType;
import dev.trainyard.common.view.Collections;
import java.time.Instant;
import java.util.Collection;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.stereotype.Component;

/**
 * The {@code command_answers} collection: every answer a queue gave, one small document per
 * command, kept {@link StoredQueue#RECENT_WINDOW} (a TTL index on {@code at}, {@link
 * WorkerIndexes}). Outside the queue document, so a version does not rewrite the ids of a day's
 * commands. An answer is written once: the first one stored stays (a second writer of the same
 * command, a redelivery that found none yet, stores nothing over it).
 */
@Component
public class AnswerStore {
  private final MongoCollection<Document> answers;
  private final MongoCollection<Document> unjournaled;

  public AnswerStore(MongoTemplate mongo) {
    this.answers = mongo.getCollection(Collections.COMMAND_ANSWERS);
    this.unjournaled = Unjournaled.of(answers);
  }

  /** The answers on record for any of {@code commandIds}, by command id; one read. */
  public Map<String, Answer> find(Collection<String> commandIds) {
    Map<String, Answer> found = new HashMap<>();
    if (commandIds.isEmpty()) {
      return found;
    }
    answers
        .find(Filters.in("_id", commandIds))
        .forEach(d -> found.put(d.getString("_id"), answer(d)));
    return found;
  }

  /**
   * Stores {@code answered}, each unless an answer to its command is on record; one journaled round
   * trip: the answers of a batch that wrote no version, whose replies follow, and those of
   * published versions that write no head or test run after them (ADR 0060).
   */
  public void record(List<Answer> answered) {
    record(answers, answered);
  }

  /**
   * As {@link #record}, without asking for the journal (ADR 0022, 0060): the answers of published
   * outboxes whose history write follows, its last round trip journaled (the heads', or the test
   * runs'), before their replies; that write holds them.
   */
  public void recordFromOutboxes(List<Answer> answered) {
    record(unjournaled, answered);
  }

  private static void record(MongoCollection<Document> collection, List<Answer> answered) {
    if (answered.isEmpty()) {
      return;
    }
    collection.bulkWrite(
        answered.stream()
            .map(
                a ->
                    new UpdateOneModel<Document>(
                        Filters.eq("_id", a.commandId()),
                        new Document("$setOnInsert", document(a)),
                        new UpdateOptions().upsert(true)))
            .toList(),
        new BulkWriteOptions().ordered(false));
  }

  /** {@code at} as a BSON date: the TTL index reads only dates. */
  private static Document document(Answer a) {
    Document d =
        new Document("queue", a.queueId())
            .append("version", a.version())
            .append("at", Date.from(a.at()));
    if (a.rejection() != null) {
      d.append("rejection", a.rejection().name()).append("message", a.message());
    }
    return d;
  }

  private static Answer answer(Document d) {
    String rejection = d.getString("rejection");
    return new Answer(
        d.getString("_id"),
        d.getString("queue"),
        d.get("version", Number.class).longValue(),
        rejection == null ? null : RejectionType.valueOf(rejection),
        d.getString("message"),
        d.getDate("at") == null ? Instant.EPOCH : d.getDate("at").toInstant());
  }
}
