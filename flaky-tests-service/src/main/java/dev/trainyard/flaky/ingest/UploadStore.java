package dev.trainyard.flaky.ingest;

import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Updates;
import dev.trainyard.flaky.http.ApiException;
import dev.trainyard.flaky.store.FlakyCollections;
import java.time.Instant;
import java.util.Date;
import org.bson.Document;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.http.HttpStatus;

/**
 * {@code flaky_uploads}: one document per upload ({@code _id = org/uploadId}). It is written first
 * ({@code writing}) and marked {@code done} last; its {@code at} is fixed by the first attempt, so
 * an upload written again records its runs at the same time and converges to the same state.
 */
public class UploadStore {
  private final MongoTemplate mongo;

  public UploadStore(MongoTemplate mongo) {
    this.mongo = mongo;
  }

  /**
   * Records the upload (or finds it from an earlier attempt) and returns its time. {@code content}
   * fingerprints what is uploaded (metadata and files): the same id with other content is a 422 and
   * changes nothing, as a reused {@code Idempotency-Key} is (an upload recorded before fingerprints
   * were kept has none and is taken as the same).
   */
  public Instant begin(
      String org, String uploadId, String content, UploadForm form, int testCases, Instant now) {
    Document doc =
        mongo
            .getCollection(FlakyCollections.UPLOADS)
            .findOneAndUpdate(
                Filters.eq("_id", org + "/" + uploadId),
                Updates.combine(
                    Updates.setOnInsert("org", org),
                    Updates.setOnInsert("repo", form.repo().key()),
                    Updates.setOnInsert("commitSha", form.commitSha()),
                    Updates.setOnInsert("branch", form.branch()),
                    Updates.setOnInsert("prNumber", form.prNumber()),
                    Updates.setOnInsert("variant", form.variant()),
                    Updates.setOnInsert("jobUrl", form.jobUrl()),
                    Updates.setOnInsert("testCases", testCases),
                    Updates.setOnInsert("at", Date.from(now)),
                    Updates.setOnInsert("content", content),
                    Updates.setOnInsert("state", "writing")),
                new FindOneAndUpdateOptions().upsert(true).returnDocument(ReturnDocument.AFTER));
    String recorded = doc.getString("content");
    if (recorded != null && !recorded.equals(content)) {
      throw new ApiException(
          HttpStatus.UNPROCESSABLE_CONTENT,
          "uploadId "
              + uploadId
              + " was already used for an upload with other content; give each run its own"
              + " uploadId");
    }
    return doc.getDate("at").toInstant();
  }

  public void done(String org, String uploadId) {
    mongo
        .getCollection(FlakyCollections.UPLOADS)
        .updateOne(Filters.eq("_id", org + "/" + uploadId), Updates.set("state", "done"));
  }
}
