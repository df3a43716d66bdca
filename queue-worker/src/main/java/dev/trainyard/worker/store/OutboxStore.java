package dev.trainyard.worker.store;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.DeleteOneModel;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.WriteModel;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.view.Collections;
import java.util.List;
import java.util.Optional;
import org.bson.Document;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.stereotype.Component;

/**
 * The {@code outboxes} collection: small documents written just before the queue documents that
 * name them, deleted once published (an absent outbox is a published one). A collection of its own
 * keeps these small writes from queueing behind the large queue documents.
 */
@Component
public class OutboxStore {
  private final MongoCollection<Document> outboxes;

  /**
   * The same, for the outboxes' writes (a journaled write follows the queue documents) and deletes
   * (the next journaled write, a read of the embedded store that commits what is unsaved, or its
   * commit within a second, holds them).
   */
  private final MongoCollection<Document> unjournaled;

  public OutboxStore(MongoTemplate mongo) {
    this.outboxes = mongo.getCollection(Collections.OUTBOXES);
    this.unjournaled = Unjournaled.of(outboxes);
  }

  /**
   * Writes the outboxes without asking for the journal ({@link Unjournaled}, ADR 0051): the queue
   * documents that name them are written next, and a journaled write follows them (theirs, or their
   * heads', ADR 0060); a crash keeps a prefix of the writes, so no queue document survives without
   * its outbox, and an outbox without its queue document is never published (nothing names it; the
   * backlog counts it, as it counted one a crash left between the two writes before).
   */
  public void writeAll(List<Outbox> versions) {
    if (!versions.isEmpty()) {
      unjournaled.bulkWrite(
          versions.stream()
              .<WriteModel<Document>>map(
                  // a retried batch writes the same outbox again: an upsert, never a duplicate
                  o ->
                      new ReplaceOneModel<>(
                          Filters.eq("_id", o.id()),
                          Json.document(o),
                          new ReplaceOptions().upsert(true)))
              .toList());
    }
  }

  public Optional<Outbox> find(String id) {
    return Optional.ofNullable(outboxes.find(Filters.eq("_id", id)).first())
        .map(d -> Json.mapper().convertValue(d, Outbox.class));
  }

  /**
   * Deletes outboxes that are published, or that no queue version names, without asking for the
   * journal (ADR 0060): a crash that takes a delete back leaves an outbox its queue's next load
   * publishes again, as a crash between the broker's acknowledgement and the delete always could;
   * the answers and rows written before the delete are then written again from it.
   */
  public void delete(List<Outbox> done) {
    if (!done.isEmpty()) {
      unjournaled.bulkWrite(
          done.stream()
              .<WriteModel<Document>>map(o -> new DeleteOneModel<>(Filters.eq("_id", o.id())))
              .toList());
    }
  }

  /** How many outboxes wait to be published (or deleted): the backlog of a stalled publisher. */
  public long backlog() {
    return outboxes.countDocuments();
  }
}
