package dev.trainyard.worker.store;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import com.mongodb.client.model.WriteModel;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.view.PullRequestRow;
import dev.trainyard.common.view.TestRunDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.bson.Document;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.stereotype.Component;

/**
 * Writes the versioned pull-request rows, each PR number's head and the test-run documents of the
 * versions a queue published. Every write is conditional on the version it carries, so the read
 * model never goes back: a version's row is written once and never over a newer state of itself (a
 * row closed by a later version stays closed), a row is closed by the first version that replaced
 * it, and a head or a test run is replaced only by its own version or a newer one. A worker paused
 * past its session that publishes version v after the new owner published v + 1 changes nothing; a
 * redelivered command that writes the same version again changes nothing either.
 */
@Component
public class HistoryStore {
  private static final ReplaceOptions UPSERT = new ReplaceOptions().upsert(true);
  private static final UpdateOptions INSERT_ONLY = new UpdateOptions().upsert(true);
  private final MongoCollection<Document> rows;
  private final MongoCollection<Document> heads;
  private final MongoCollection<Document> runs;

  public HistoryStore(MongoTemplate mongo) {
    this.rows = mongo.getCollection(Collections.PULL_REQUESTS);
    this.heads = mongo.getCollection(Collections.PULL_REQUEST_HEADS);
    this.runs = mongo.getCollection(Collections.TEST_RUNS);
  }

  /**
   * What {@code published} versions write, each row converted once: the rows, each PR number's head
   * (the newest row of a (queue, PR number) under a well-known id, in a collection of its own) and
   * the test runs, all by id, so at most three round trips whatever the size of the history.
   */
  private Writes prepare(List<Outbox> published) {
    List<WriteModel<Document>> rowWrites = new ArrayList<>();
    List<WriteModel<Document>> headWrites = new ArrayList<>();
    List<WriteModel<Document>> runWrites = new ArrayList<>();
    for (Outbox outbox : published) {
      for (PullRequestRow row : outbox.rows()) {
        Document doc = Json.document(row);
        rowWrites.add(
            new UpdateOneModel<>(
                Filters.eq("_id", row.id()), new Document("$setOnInsert", doc), INSERT_ONLY));
        if (row.supersedes() != null) {
          rowWrites.add(
              new UpdateOneModel<>(
                  Filters.and(
                      Filters.eq("_id", PullRequestRow.rowId(row.prId(), row.supersedes())),
                      Filters.or(
                          Filters.eq("toVersion", null),
                          Filters.gt("toVersion", row.fromVersion()))),
                  Updates.set("toVersion", row.fromVersion())));
        }
        String headId = PullRequestRow.headId(row.queueKey(), row.prNumber());
        headWrites.add(
            new ReplaceOneModel<>(
                Filters.and(
                    Filters.eq("_id", headId), Filters.lte("fromVersion", row.fromVersion())),
                new Document(doc).append("_id", headId),
                UPSERT));
      }
      for (TestRunDocument run : outbox.runs()) {
        runWrites.add(
            new ReplaceOneModel<>(
                Filters.and(
                    Filters.eq("_id", run.id()),
                    Filters.or(
                        Filters.exists(VERSION, false), Filters.lte(VERSION, outbox.version()))),
                Json.document(run).append(VERSION, outbox.version()),
                UPSERT));
      }
    }
    return new Writes(rowWrites, headWrites, runWrites);
  }

  /**
   * Whether publishing {@code outbox} writes a head or a test run, and so a journaled write of this
   * store before its replies and effects ({@link #write}): every row has a head.
   */
  public static boolean writesCurrent(Outbox outbox) {
    return !outbox.rows().isEmpty() || !outbox.runs().isEmpty();
  }

  /** The writes of published versions, by collection. */
  private record Writes(
      List<WriteModel<Document>> rows,
      List<WriteModel<Document>> heads,
      List<WriteModel<Document>> runs) {}

  /**
   * Writes the rows, the test runs and the heads (what a reply's client reads next) of {@code
   * published} versions, at most three round trips; only the last asks for the journal and makes
   * the others durable with it ({@link Unjournaled}).
   */
  public void write(List<Outbox> published) {
    Writes writes = prepare(published);
    write(
        new Batch(rows, writes.rows()),
        new Batch(runs, writes.runs()),
        new Batch(heads, writes.heads()));
  }

  /** Writes the non-empty batches in order, the last one journaled. */
  private static void write(Batch... all) {
    List<Batch> batches = Stream.of(all).filter(b -> !b.writes().isEmpty()).toList();
    for (int i = 0; i < batches.size(); i++) {
      Batch batch = batches.get(i);
      MongoCollection<Document> target =
          i == batches.size() - 1 ? batch.collection() : Unjournaled.of(batch.collection());
      writeNewer(target, batch.writes());
    }
  }

  /** The queue version that wrote a test-run document (none in documents of before it was kept). */
  static final String VERSION = "version";

  /**
   * Sends {@code writes} unordered. A guarded upsert whose guard does not hold (a newer version is
   * stored) tries to insert under the stored document's id and is refused as a duplicate key: that
   * refusal is the guard working, not a failure.
   */
  private static void writeNewer(
      MongoCollection<Document> collection, List<WriteModel<Document>> writes) {
    try {
      collection.bulkWrite(writes, new BulkWriteOptions().ordered(false));
    } catch (MongoBulkWriteException e) {
      boolean onlyNewer =
          e.getWriteConcernError() == null
              && e.getWriteErrors().stream()
                  .allMatch(
                      err ->
                          ErrorCategory.fromErrorCode(err.getCode())
                              == ErrorCategory.DUPLICATE_KEY);
      if (!onlyNewer) {
        throw e;
      }
    }
  }

  /** The writes of one collection. */
  private record Batch(MongoCollection<Document> collection, List<WriteModel<Document>> writes) {}
}
