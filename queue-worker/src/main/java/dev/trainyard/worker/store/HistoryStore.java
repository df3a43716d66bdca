package dev.trainyard.worker.store;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Indexes;
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
    rows.createIndex(
        Indexes.compoundIndex(
            Indexes.ascending("queueKey"),
            Indexes.descending("stateChangedAt"),
            Indexes.ascending("prId")));
    heads.createIndex(
        Indexes.compoundIndex(
            Indexes.ascending("queueKey"),
            Indexes.ascending("headBranch"),
            Indexes.descending("submittedAt")));
    // getMergeQueueMetrics reads a queue's runs of the last hour by when they started and ended
    runs.createIndex(
        Indexes.compoundIndex(Indexes.ascending("queueKey"), Indexes.descending("concludedAt")));
    runs.createIndex(
        Indexes.compoundIndex(
            Indexes.ascending("queueKey"), Indexes.descending("details.createdAt")));
  }

  /**
   * Writes the new rows, closes the versions they replace and moves each PR number's head, all by
   * id (two round trips whatever the size of the history). A head is the newest row of a (queue, PR
   * number) under a well-known id, in a collection of its own.
   */
  public void write(List<PullRequestRow> changed) {
    if (changed.isEmpty()) {
      return;
    }
    List<WriteModel<Document>> writes = new ArrayList<>();
    List<WriteModel<Document>> heads = new ArrayList<>();
    for (PullRequestRow row : changed) {
      Document doc = Json.document(row);
      writes.add(new ReplaceOneModel<>(Filters.eq("_id", row.id()), doc, UPSERT));
      if (row.supersedes() != null) {
        writes.add(
            new UpdateOneModel<>(
                Filters.eq("_id", PullRequestRow.rowId(row.prId(), row.supersedes())),
                Updates.set("toVersion", row.fromVersion())));
      }
      // the same fields under the head's id: converted once (a conversion walks the whole row)
      String headId = PullRequestRow.headId(row.queueKey(), row.prNumber());
      heads.add(
          new ReplaceOneModel<>(
              Filters.eq("_id", headId), new Document(doc).append("_id", headId), UPSERT));
    }
    rows.bulkWrite(writes);
    this.heads.bulkWrite(heads);
  }

  /** Replaces the documents of the given test runs (one round trip). */
  public void writeRuns(List<TestRunDocument> changed) {
    if (changed.isEmpty()) {
      return;
    }
    List<WriteModel<Document>> writes = new ArrayList<>();
    for (TestRunDocument run : changed) {
      writes.add(new ReplaceOneModel<>(Filters.eq("_id", run.id()), Json.document(run), UPSERT));
    }
    runs.bulkWrite(writes);
  }
}
