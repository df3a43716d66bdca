package dev.trainyard.flaky.ingest;

import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.WriteModel;
import dev.trainyard.flaky.store.FlakyCollections;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import org.bson.Document;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * {@code flaky_test_results}: the run log, one document per (upload, test case) with {@code _id =
 * org/uploadId/testId}, so writing an upload twice replaces rather than duplicates. A TTL index on
 * {@code at} keeps it to the retention period.
 */
public class ResultStore {
  private final MongoTemplate mongo;

  public ResultStore(MongoTemplate mongo) {
    this.mongo = mongo;
  }

  /**
   * The results upload {@code uploadId} logged, as they were merged (what finishing an upload its
   * writer left half-written starts from).
   */
  public List<MergedResult> of(String org, String uploadId) {
    List<MergedResult> found = new ArrayList<>();
    for (Document doc :
        mongo
            .getCollection(FlakyCollections.TEST_RESULTS)
            .find(Filters.and(Filters.eq("org", org), Filters.eq("uploadId", uploadId)))) {
      Number duration = doc.get("durationMillis", Number.class);
      found.add(
          new MergedResult(
              doc.getString("testId"),
              doc.getString("name"),
              doc.getString("classname"),
              doc.getString("parent"),
              doc.getString("filePath"),
              doc.getString("variant"),
              Outcome.valueOf(doc.getString("o")),
              duration == null ? 0 : duration.longValue(),
              doc.getString("message")));
    }
    return found;
  }

  public void save(
      String org,
      String repo,
      UploadForm form,
      String uploadId,
      Collection<MergedResult> results,
      Instant at) {
    List<WriteModel<Document>> writes = new ArrayList<>(results.size());
    for (MergedResult r : results) {
      String id = org + "/" + uploadId + "/" + r.testId();
      Document doc =
          new Document("_id", id)
              .append("org", org)
              .append("repo", repo)
              .append("testId", r.testId())
              .append("name", r.name())
              .append("classname", r.classname())
              .append("parent", r.parent())
              .append("filePath", r.filePath())
              .append("variant", r.variant())
              .append("uploadId", uploadId)
              .append("sha", form.commitSha())
              .append("branch", form.branch())
              .append("pr", form.prNumber())
              .append("o", r.outcome().name())
              .append("durationMillis", r.durationMillis())
              .append("message", r.message())
              .append("at", Date.from(at));
      writes.add(
          new ReplaceOneModel<>(Filters.eq("_id", id), doc, new ReplaceOptions().upsert(true)));
    }
    if (!writes.isEmpty()) {
      mongo
          .getCollection(FlakyCollections.TEST_RESULTS)
          .bulkWrite(writes, new BulkWriteOptions().ordered(false));
    }
  }
}
