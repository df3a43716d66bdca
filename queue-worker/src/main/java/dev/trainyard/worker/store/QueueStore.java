package dev.trainyard.worker.store;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoException;
import com.mongodb.ReadConcern;
import com.mongodb.ReadPreference;
import com.mongodb.bulk.BulkWriteResult;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.DeleteOneModel;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.InsertOneModel;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.WriteModel;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.json.Timestamps;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.view.Collections;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.bson.Document;
import org.bson.RawBsonDocument;
import org.bson.codecs.Codec;
import org.bson.conversions.Bson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.stereotype.Component;

/**
 * Loads and writes queues (ADR 0019). A queue version is one queue document, written by one atomic
 * single-document write checked against the version it was decided on, and the entry documents of
 * the entries it changed, written before it under fresh tags so that only a version that won its
 * race ever names them ({@link QueueSplit}). A version whose queue document would be larger than
 * {@code maxDocumentBytes} (not counting the remembered command ids, bounded on their own), and
 * larger than the one it replaces, is refused ({@link QueueTooLarge}): whatever its clients send,
 * no queue document comes near MongoDB's 16 MiB limit, and a queue over the limit can still shrink.
 */
@Component
public class QueueStore {
  /** Half of MongoDB's 16 MiB document limit. */
  public static final long DEFAULT_MAX_DOCUMENT_BYTES = 8L * 1024 * 1024;

  private static final Logger log = LoggerFactory.getLogger(QueueStore.class);
  private static final int MAX_LOAD_ATTEMPTS = 8;

  private final MongoCollection<Document> queues;
  private final MongoCollection<RawBsonDocument> rawQueues;
  private final MongoCollection<RawBsonDocument> rawQueuesAheadOfTheJournal;
  private final MongoCollection<Document> entries;
  private final Codec<Document> codec;
  private final long maxDocumentBytes;

  public QueueStore(
      MongoTemplate mongo,
      @Value("${trainyard.worker.max-queue-document-bytes:" + DEFAULT_MAX_DOCUMENT_BYTES + "}")
          long maxDocumentBytes) {
    // a read that decides what to delete sees only what a majority has: never a version a failed
    // primary acknowledged alone and the new primary rolled back
    this.queues = decidingDeletes(mongo.getCollection(Collections.QUEUES));
    WriteConcernCheck.require(
        queues.getWriteConcern(), () -> mongo.getDb().runCommand(new Document("hello", 1)));
    this.rawQueues = queues.withDocumentClass(RawBsonDocument.class);
    this.rawQueuesAheadOfTheJournal = Unjournaled.of(rawQueues);
    this.codec = queues.getCodecRegistry().get(Document.class);
    this.maxDocumentBytes = maxDocumentBytes;
    MongoCollection<Document> entryDocuments =
        decidingDeletes(mongo.getCollection(Collections.QUEUE_ENTRIES));
    // written before the queue document and a journaled write after it, deleted once no version
    // names them: no journal needed (ADR 0051, 0060)
    this.entries = Unjournaled.of(entryDocuments);
  }

  private static MongoCollection<Document> decidingDeletes(MongoCollection<Document> collection) {
    return collection
        .withReadConcern(ReadConcern.MAJORITY)
        .withReadPreference(ReadPreference.primary());
  }

  /**
   * The queue with its entries. Entry documents the queue does not name and that no write in flight
   * can still name (written for its version or before) are deleted on the way.
   */
  public Optional<StoredQueue> load(String id) {
    for (int attempt = 0; attempt < MAX_LOAD_ATTEMPTS; attempt++) {
      Optional<StoredQueue> header = loadHeader(id);
      if (header.isEmpty()) {
        return header;
      }
      Map<String, StoredEntry> documents = new HashMap<>();
      entries
          .find(Filters.eq("queue", id))
          .forEach(
              d ->
                  documents.put(
                      d.getString("_id"), Json.mapper().convertValue(d, StoredEntry.class)));
      StoredQueue whole = QueueSplit.join(header.get(), documents);
      if (whole != null) {
        Set<String> named = whole.entryTags().documentIds(id);
        delete(
            documents.values().stream()
                .filter(d -> d.version() <= whole.version() && !named.contains(d.id()))
                .map(StoredEntry::id)
                .toList());
        return Optional.of(whole);
      }
      // a newer version replaced a document between the two reads: read that version
    }
    throw new QueueKeptChanging(id, MAX_LOAD_ATTEMPTS);
  }

  private Optional<StoredQueue> loadHeader(String id) {
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
    List<QueueSplit> splits = new ArrayList<>();
    List<WriteModel<RawBsonDocument>> writes = new ArrayList<>();
    for (int i = 0; i < next.size(); i++) {
      QueueSplit split = QueueSplit.of(next.get(i), expected.get(i));
      RawBsonDocument doc = encoded(split.next().header(), expected.get(i).header());
      long version = expected.get(i).version();
      writes.add(
          version == 0
              ? new InsertOneModel<>(doc)
              : new ReplaceOneModel<>(
                  Filters.and(Filters.eq("_id", next.get(i).id()), Filters.eq("version", version)),
                  doc));
      splits.add(split);
    }
    return new Prepared(splits, writes, new AtomicBoolean());
  }

  /**
   * Versions {@link #prepare}d for writing, the writes of their queue documents, and whether their
   * entry documents are written yet ({@link #writeEntries}, which {@link #saveAll} requires).
   */
  public record Prepared(
      List<QueueSplit> splits,
      List<WriteModel<RawBsonDocument>> writes,
      AtomicBoolean entriesWritten) {
    /** The versions as written, each with the tags of its entry documents. */
    public List<StoredQueue> next() {
      return splits.stream().map(QueueSplit::next).toList();
    }
  }

  /**
   * Writes the entry documents of the prepared versions, in one round trip and without asking for
   * the journal ({@link Unjournaled}): the queue document's journaled write in {@link #saveAll}, or
   * the journaled write after {@link #saveAllAheadOfAJournaledWrite}, makes them durable, and until
   * a queue document names them they are never read.
   */
  public void writeEntries(Prepared prepared) {
    List<InsertOneModel<Document>> inserts =
        prepared.splits().stream()
            .flatMap(s -> s.written().stream())
            .map(e -> new InsertOneModel<>(Json.document(e)))
            .toList();
    if (!inserts.isEmpty()) {
      entries.bulkWrite(inserts, new BulkWriteOptions().ordered(false));
    }
    prepared.entriesWritten().set(true);
  }

  /**
   * Writes each prepared queue if its stored version is still the one it was decided on (none yet
   * for a new queue), all in one round trip; each write is atomic on its own document. A queue
   * counts as written when the stored document is the one we meant to write (a retried batch
   * decides the same commands on the same base to the same document). Its entry documents are
   * {@link #writeEntries written} before, and a journaled write after them.
   *
   * @return the ids of queues another writer changed first: decide them again
   */
  public Set<String> saveAll(Prepared prepared) {
    return saveAll(prepared, rawQueues);
  }

  /**
   * As {@link #saveAll(Prepared)}, without asking for the journal: for versions whose caller sends
   * a journaled write right after this one, before anything acts on them (each stored version's
   * heads, ADR 0060). That write's commit holds this one, since a crash keeps a prefix of the
   * writes ({@link Unjournaled}).
   *
   * @return the ids of queues another writer changed first: decide them again
   */
  public Set<String> saveAllAheadOfAJournaledWrite(Prepared prepared) {
    return saveAll(prepared, rawQueuesAheadOfTheJournal);
  }

  private Set<String> saveAll(Prepared prepared, MongoCollection<RawBsonDocument> target) {
    if (prepared.writes().isEmpty()) {
      return Set.of();
    }
    if (!prepared.entriesWritten().get()) {
      // a queue document naming entry documents that are not there could not be read again
      throw new IllegalStateException("the entry documents of these versions are not written yet");
    }
    Map<String, Set<String>> conflicted = saveQueueDocuments(prepared, target);
    // what no version names any more: the superseded documents of the versions written, and the
    // new documents of those that lost their race, unless the stored version names them after all
    delete(
        prepared.splits().stream()
            .flatMap(
                s -> {
                  Set<String> named = conflicted.get(s.next().id());
                  return named == null
                      ? s.superseded().stream()
                      : s.written().stream().map(StoredEntry::id).filter(id -> !named.contains(id));
                })
            .toList());
    return conflicted.keySet();
  }

  /**
   * @return the queues another writer changed first, each with the entry documents its stored
   *     version names
   */
  private Map<String, Set<String>> saveQueueDocuments(
      Prepared prepared, MongoCollection<RawBsonDocument> target) {
    try {
      BulkWriteResult result =
          target.bulkWrite(prepared.writes(), new BulkWriteOptions().ordered(false));
      if (result.getMatchedCount() + result.getInsertedCount() == prepared.writes().size()) {
        return Map.of();
      }
    } catch (MongoBulkWriteException e) {
      boolean onlyRaces =
          e.getWriteErrors().stream()
              .allMatch(
                  err -> ErrorCategory.fromErrorCode(err.getCode()) == ErrorCategory.DUPLICATE_KEY);
      if (!onlyRaces || e.getWriteConcernError() != null) {
        // a refused document, or a write the replica set did not confirm: not a lost race
        throw e;
      }
    }
    return notWritten(prepared.next());
  }

  /**
   * Deletes entry documents no version names; best effort, since a document left behind is only
   * space (the next {@link #load} of its queue deletes it).
   */
  private void delete(List<String> ids) {
    if (ids.isEmpty()) {
      return;
    }
    try {
      entries.bulkWrite(
          ids.stream().map(id -> new DeleteOneModel<Document>(Filters.eq("_id", id))).toList(),
          new BulkWriteOptions().ordered(false));
    } catch (MongoException e) {
      log.warn("{} entry documents no queue names were left behind: {}", ids.size(), e.toString());
    }
  }

  /**
   * {@code next} encoded once (the bytes the driver sends); refused when what the limit bounds of
   * it is over the limit and larger than in {@code before}.
   */
  private RawBsonDocument encoded(StoredQueue next, StoredQueue before) {
    RawBsonDocument doc = new RawBsonDocument(Json.document(next), codec);
    if (doc.getByteBuffer().remaining() > maxDocumentBytes) {
      long bytes = bounded(next);
      if (bytes > maxDocumentBytes && (before.version() == 0 || bytes > bounded(before))) {
        throw new QueueTooLarge(next.id(), bytes, maxDocumentBytes);
      }
    }
    return doc;
  }

  /**
   * The bytes of a queue document the limit bounds: all but the ids of applied commands, which
   * {@link StoredQueue#RECENT_MAX} bounds on its own and which the refusal of a command adds to.
   */
  private long bounded(StoredQueue queue) {
    Document doc = Json.document(queue);
    doc.remove("recent");
    return new RawBsonDocument(doc, codec).getByteBuffer().remaining();
  }

  /**
   * After a partial bulk write: the queues whose stored document is not the one we wrote, each with
   * the entry documents the stored one names. Ours is told by what survives the round trip through
   * the store exactly and no other writer has: the version, the entry tags and the id of the
   * outbox, which is each writer's own ({@link Outbox#newId}). Not by the remembered commands:
   * another attempt at the same commands on the same base (a redelivery after a crash between the
   * write and the offset commit) remembers the same ids, and their times lose their microseconds in
   * the store.
   */
  private Map<String, Set<String>> notWritten(List<StoredQueue> next) {
    Map<String, Set<String>> lost = new HashMap<>();
    for (StoredQueue q : next) {
      Optional<StoredQueue> stored = loadHeader(q.id());
      boolean ours =
          stored.isPresent()
              && stored.get().version() == q.version()
              && Objects.equals(stored.get().outboxId(), q.outboxId())
              && stored.get().entryTags().equals(q.entryTags());
      if (!ours) {
        lost.put(q.id(), stored.map(s -> s.entryTags().documentIds(q.id())).orElse(Set.of()));
      }
    }
    return lost;
  }

  /** The stored version of each of these queues that exists, in one read. */
  public Map<String, Long> versions(Collection<String> ids) {
    Map<String, Long> versions = new HashMap<>();
    queues
        .find(Filters.in("_id", ids))
        .projection(new Document("version", 1))
        .forEach(d -> versions.put(d.getString("_id"), d.get("version", Number.class).longValue()));
    return versions;
  }

  /** The keys of the queues that hold pull requests, for the source-host poller. */
  public List<QueueKey> activeQueues() {
    return keys(Filters.gt("activeEntries", 0));
  }

  /** The keys of the queues {@code filter} selects, read from the index's documents' keys only. */
  private List<QueueKey> keys(Bson filter) {
    List<QueueKey> keys = new ArrayList<>();
    queues
        .find(filter)
        .projection(new Document("aggregate.key", 1))
        .forEach(
            d -> {
              Document aggregate = d.get("aggregate", Document.class);
              if (aggregate != null && aggregate.get("key") != null) {
                keys.add(Json.mapper().convertValue(aggregate.get("key"), QueueKey.class));
              }
            });
    return keys;
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

  /**
   * Queues whose ready pull requests wait without one concluding ({@link QueueStalls}), each with
   * the instant they began to (at or before {@code now}), for the stall watch.
   */
  public Map<String, Instant> waiting(Instant now) {
    Map<String, Instant> waiting = new HashMap<>();
    queues
        .find(Filters.lte("waitingSince", Timestamps.format(now)))
        .projection(new Document("waitingSince", 1))
        .forEach(d -> waiting.put(d.getString("_id"), Instant.parse(d.getString("waitingSince"))));
    return waiting;
  }

  /**
   * The keys of the queues with a deadline at or before {@code now}, for the ticker: it sends each
   * a tick without loading it.
   */
  public List<QueueKey> dueBefore(Instant now) {
    return keys(Filters.lte("nextDeadline", Timestamps.format(now)));
  }

  /** The ids of the queues with a deadline at or before {@code at}, for the stall watch. */
  public List<String> dueIds(Instant at) {
    List<String> ids = new ArrayList<>();
    queues
        .find(Filters.lte("nextDeadline", Timestamps.format(at)))
        .projection(new Document("_id", 1))
        .forEach(d -> ids.add(d.getString("_id")));
    return ids;
  }

  /** The pull requests in every queue that have not concluded (the sum of active entries). */
  public long activeEntries() {
    Document sum =
        queues
            .aggregate(
                List.of(
                    // only queues that hold any (the partial index's): no scan of every queue
                    new Document("$match", new Document("activeEntries", new Document("$gt", 0))),
                    new Document(
                        "$group",
                        new Document("_id", null)
                            .append("n", new Document("$sum", "$activeEntries")))))
            .first();
    return sum == null ? 0 : ((Number) sum.get("n")).longValue();
  }
}
