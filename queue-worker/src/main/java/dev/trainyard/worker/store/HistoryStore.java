package dev.trainyard.worker.store;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.Updates;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.view.PullRequestRow;
import java.util.List;
import org.bson.Document;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.stereotype.Component;

/**
 * Writes the versioned pull-request rows. Both steps are idempotent, so a redelivered command that
 * writes them again changes nothing.
 */
@Component
public class HistoryStore {
  private final MongoCollection<Document> rows;

  public HistoryStore(MongoTemplate mongo) {
    this.rows = mongo.getCollection(Collections.PULL_REQUESTS);
    rows.createIndex(
        Indexes.compoundIndex(
            Indexes.ascending("queueKey"),
            Indexes.descending("stateChangedAt"),
            Indexes.ascending("prId")));
    rows.createIndex(
        Indexes.compoundIndex(
            Indexes.ascending("queueKey"),
            Indexes.ascending("prNumber"),
            Indexes.descending("submittedAt")));
    rows.createIndex(
        Indexes.compoundIndex(Indexes.ascending("prId"), Indexes.ascending("toVersion")));
  }

  public void write(List<PullRequestRow> changed) {
    for (PullRequestRow row : changed) {
      rows.replaceOne(
          Filters.eq("_id", row.id()),
          QueueStore.toDocument(row),
          new ReplaceOptions().upsert(true));
      rows.updateMany(
          Filters.and(
              Filters.eq("prId", row.prId()),
              Filters.eq("toVersion", null),
              Filters.lt("fromVersion", row.fromVersion())),
          Updates.set("toVersion", row.fromVersion()));
    }
  }
}
