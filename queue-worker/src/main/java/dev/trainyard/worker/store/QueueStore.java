package dev.trainyard.worker.store;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Updates;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.json.Timestamps;
import dev.trainyard.common.view.Collections;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bson.Document;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.stereotype.Component;

/** Loads and writes queue aggregate documents; every write is one atomic single-document write. */
@Component
public class QueueStore {
  private final MongoCollection<Document> queues;

  public QueueStore(MongoTemplate mongo) {
    this.queues = mongo.getCollection(Collections.QUEUES);
    queues.createIndex(Indexes.ascending("nextDeadline"), new IndexOptions().sparse(true));
  }

  public Optional<StoredQueue> load(String id) {
    Document doc = queues.find(Filters.eq("_id", id)).first();
    return Optional.ofNullable(doc).map(d -> Json.mapper().convertValue(d, StoredQueue.class));
  }

  /**
   * Writes {@code next} if the stored version is still {@code expectedVersion} (0 = no document).
   *
   * @return false when another writer got there first: re-read and decide again
   */
  public boolean save(StoredQueue next, long expectedVersion) {
    Document doc = toDocument(next);
    if (expectedVersion == 0) {
      try {
        queues.insertOne(doc);
        return true;
      } catch (MongoWriteException e) {
        if (e.getError().getCategory() == ErrorCategory.DUPLICATE_KEY) {
          return false;
        }
        throw e;
      }
    }
    return queues
            .replaceOne(
                Filters.and(Filters.eq("_id", next.id()), Filters.eq("version", expectedVersion)),
                doc)
            .getMatchedCount()
        == 1;
  }

  /** Empties the outbox of {@code version} once it is published; a newer version keeps its own. */
  public void outboxPublished(String id, long version) {
    queues.updateOne(
        Filters.and(Filters.eq("_id", id), Filters.eq("version", version)),
        Updates.combine(Updates.set("rows", List.of()), Updates.set("events", List.of())));
  }

  /** Queues with a deadline at or before {@code now}, for the ticker. */
  public List<String> dueBefore(Instant now) {
    List<String> ids = new ArrayList<>();
    queues
        .find(Filters.lte("nextDeadline", Timestamps.format(now)))
        .projection(new Document("_id", 1))
        .forEach(d -> ids.add(d.getString("_id")));
    return ids;
  }

  @SuppressWarnings("unchecked")
  static Document toDocument(Object value) {
    return new Document(Json.mapper().convertValue(value, Map.class));
  }
}
