package dev.trainyard.worker.store;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.bulk.BulkWriteResult;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.InsertOneModel;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.WriteModel;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.json.Timestamps;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.view.Collections;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.bson.Document;
import org.bson.RawBsonDocument;
import org.bson.codecs.Codec;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.stereotype.Component;

/**
 * Loads and writes queue aggregate documents; every write is one atomic single-document write. A
 * version that would be larger than {@code maxDocumentBytes}, and larger than the one it replaces,
 * is refused ({@link QueueTooLarge}): whatever its clients send, no queue document comes near
 * MongoDB's 16 MiB limit, and a queue over the limit can still shrink.
 */
@Component
public class QueueStore {
  /** Half of MongoDB's 16 MiB document limit. */
  public static final long DEFAULT_MAX_DOCUMENT_BYTES = 8L * 1024 * 1024;

  private final MongoCollection<Document> queues;
  private final MongoCollection<RawBsonDocument> rawQueues;
  private final Codec<Document> codec;
  private final long maxDocumentBytes;

  public QueueStore(
      MongoTemplate mongo,
      @Value("${trainyard.worker.max-queue-document-bytes:" + DEFAULT_MAX_DOCUMENT_BYTES + "}")
          long maxDocumentBytes) {
    this.queues = mongo.getCollection(Collections.QUEUES);
    this.rawQueues = queues.withDocumentClass(RawBsonDocument.class);
    this.codec = queues.getCodecRegistry().get(Document.class);
    this.maxDocumentBytes = maxDocumentBytes;
    queues.createIndex(Indexes.ascending("nextDeadline"), new IndexOptions().sparse(true));
  }

  public Optional<StoredQueue> load(String id) {
    Document doc = queues.find(Filters.eq("_id", id)).first();
    return Optional.ofNullable(doc).map(d -> Json.mapper().convertValue(d, StoredQueue.class));
  }

  /**
   * The next versions of some queues, encoded once (the bytes the driver sends) and checked against
   * the size limit, ready for {@link #saveAll}. Prepared before anything of them is written (their
   * outboxes), so a version that is refused leaves nothing behind.
   *
   * @throws QueueTooLarge for a version over the limit that is larger than the one it replaces
   */
  public Prepared prepare(List<StoredQueue> next, List<StoredQueue> expected) {
    List<WriteModel<RawBsonDocument>> writes = new ArrayList<>();
    for (int i = 0; i < next.size(); i++) {
      RawBsonDocument doc = encoded(next.get(i), expected.get(i));
      long version = expected.get(i).version();
      writes.add(
          version == 0
              ? new InsertOneModel<>(doc)
              : new ReplaceOneModel<>(
                  Filters.and(Filters.eq("_id", next.get(i).id()), Filters.eq("version", version)),
                  doc));
    }
    return new Prepared(List.copyOf(next), writes);
  }

  /** Versions {@link #prepare}d for writing, and their writes. */
  public record Prepared(List<StoredQueue> next, List<WriteModel<RawBsonDocument>> writes) {}

  /**
   * Writes each prepared queue if its stored version is still the one it was decided on (none yet
   * for a new queue), all in one round trip; each write is atomic on its own document. A queue
   * counts as written when the stored document is the one we meant to write (a retried batch
   * decides the same commands on the same base to the same document).
   *
   * @return the ids of queues another writer changed first: decide them again
   */
  public Set<String> saveAll(Prepared prepared) {
    if (prepared.writes().isEmpty()) {
      return Set.of();
    }
    try {
      BulkWriteResult result =
          rawQueues.bulkWrite(prepared.writes(), new BulkWriteOptions().ordered(false));
      if (result.getMatchedCount() + result.getInsertedCount() == prepared.writes().size()) {
        return Set.of();
      }
    } catch (MongoBulkWriteException e) {
      boolean onlyRaces =
          e.getWriteErrors().stream()
              .allMatch(
                  err -> ErrorCategory.fromErrorCode(err.getCode()) == ErrorCategory.DUPLICATE_KEY);
      if (!onlyRaces) {
        throw e;
      }
    }
    return notWritten(prepared.next());
  }

  /**
   * {@code next} encoded once (the bytes the driver sends); refused when it is over the limit and
   * larger than {@code before}.
   */
  private RawBsonDocument encoded(StoredQueue next, StoredQueue before) {
    RawBsonDocument doc = new RawBsonDocument(Json.document(next), codec);
    long bytes = doc.getByteBuffer().remaining();
    if (bytes > maxDocumentBytes
        && (before.version() == 0
            || bytes
                > new RawBsonDocument(Json.document(before), codec).getByteBuffer().remaining())) {
      throw new QueueTooLarge(next.id(), bytes, maxDocumentBytes);
    }
    return doc;
  }

  /** After a partial bulk write: the queues whose stored document is not the one we wrote. */
  private Set<String> notWritten(List<StoredQueue> next) {
    Set<String> lost = new HashSet<>();
    for (StoredQueue q : next) {
      Optional<StoredQueue> stored = load(q.id());
      boolean ours =
          stored.isPresent()
              && stored.get().version() == q.version()
              && stored.get().recent().equals(q.recent());
      if (!ours) {
        lost.add(q.id());
      }
    }
    return lost;
  }

  /** The keys of the queues that hold pull requests, for the source-host poller. */
  public List<QueueKey> activeQueues() {
    List<QueueKey> active = new ArrayList<>();
    queues
        .find(Filters.gt("activeEntries", 0))
        .projection(new Document("aggregate.key", 1))
        .forEach(
            d ->
                active.add(
                    Json.mapper()
                        .convertValue(
                            d.get("aggregate", Document.class).get("key"), QueueKey.class)));
    return active;
  }

  /** Queues whose state asks for source-host work, for the effect sweep. */
  public List<String> withEffects() {
    List<String> ids = new ArrayList<>();
    queues
        .find(Filters.eq("effectsPending", true))
        .projection(new Document("_id", 1))
        .forEach(d -> ids.add(d.getString("_id")));
    return ids;
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
}
