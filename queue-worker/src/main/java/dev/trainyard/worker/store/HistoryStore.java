package dev.trainyard.worker.store;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.UpdateOneModel;
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
 * Writes the versioned pull-request rows and the test-run documents. Both steps are idempotent, so
 * a redelivered command that writes them again changes nothing.
 */
@Component
public class HistoryStore {
  private static final ReplaceOptions UPSERT = new ReplaceOptions().upsert(true);
  private final MongoCollection<Document> rows;
  private final MongoCollection<Document> heads;
  private final MongoCollection<Document> runs;

  public HistoryStore(MongoTemplate mongo) {
    this.rows = mongo.getCollection(Collections.PULL_REQUESTS);
    this.heads = mongo.getCollection(Collections.PULL_REQUEST_HEADS);
    this.runs = mongo.getCollection(Collections.TEST_RUNS);
  }

  /**
   * Writes the new rows, closes the versions they replace, moves each PR number's head, and
   * replaces the changed test runs, all by id: up to three round trips whatever the size of the
   * history. A head is the newest row of a (queue, PR number) under a well-known id, in a
   * collection of its own. Only the last round trip asks for the journal, and it makes the others
   * durable with it ({@link Unjournaled}): a reply that follows finds its rows after a crash too.
   */
  public void write(List<PullRequestRow> changed, List<TestRunDocument> changedRuns) {
    List<WriteModel<Document>> rowWrites = new ArrayList<>();
    List<WriteModel<Document>> headWrites = new ArrayList<>();
    for (PullRequestRow row : changed) {
      Document doc = Json.document(row);
      rowWrites.add(new ReplaceOneModel<>(Filters.eq("_id", row.id()), doc, UPSERT));
      if (row.supersedes() != null) {
        rowWrites.add(
            new UpdateOneModel<>(
                Filters.eq("_id", PullRequestRow.rowId(row.prId(), row.supersedes())),
                Updates.set("toVersion", row.fromVersion())));
      }
      // the same fields under the head's id: converted once (a conversion walks the whole row)
      String headId = PullRequestRow.headId(row.queueKey(), row.prNumber());
      headWrites.add(
          new ReplaceOneModel<>(
              Filters.eq("_id", headId), new Document(doc).append("_id", headId), UPSERT));
    }
    List<WriteModel<Document>> runWrites = new ArrayList<>();
    for (TestRunDocument run : changedRuns) {
      runWrites.add(new ReplaceOneModel<>(Filters.eq("_id", run.id()), Json.document(run), UPSERT));
    }
    List<Batch> batches =
        Stream.of(
                new Batch(rows, rowWrites),
                new Batch(heads, headWrites),
                new Batch(runs, runWrites))
            .filter(b -> !b.writes().isEmpty())
            .toList();
    for (int i = 0; i < batches.size(); i++) {
      Batch batch = batches.get(i);
      MongoCollection<Document> target =
          i == batches.size() - 1 ? batch.collection() : Unjournaled.of(batch.collection());
      target.bulkWrite(batch.writes());
    }
  }

  /** The writes of one collection. */
  private record Batch(MongoCollection<Document> collection, List<WriteModel<Document>> writes) {}
}
