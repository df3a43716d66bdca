package dev.trainyard.flaky.ingest;

import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Updates;
import dev.trainyard.flaky.http.ApiException;
import dev.trainyard.flaky.repo.Repo;
import dev.trainyard.flaky.store.FlakyCollections;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.http.HttpStatus;

/**
 * {@code flaky_uploads}: one document per upload ({@code _id = org/uploadId}). It is written first
 * ({@code writing}) and marked {@code done} last (one left {@code writing} is finished by the sweep
 * from the run log: {@link Ingestion#finish}); its {@code at} is fixed by the first attempt, so an
 * upload written again records its runs at the same time and converges to the same state.
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
  public Begun begin(
      String org,
      String uploadId,
      String content,
      UploadForm form,
      int testCases,
      Instant commitAt,
      String configuration,
      Instant now) {
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
                    Updates.setOnInsert("commitAt", commitAt == null ? null : Date.from(commitAt)),
                    Updates.setOnInsert("configuration", configuration),
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
    return begun(doc);
  }

  /**
   * When an upload was first recorded, where its commit stands (its time when unknown), and where
   * its tests ran by its reports (null: they did not say, or said several things).
   */
  public record Begun(Instant at, Instant commitAt, String configuration) {}

  private static Begun begun(Document doc) {
    Instant at = doc.getDate("at").toInstant();
    Date commitAt = doc.getDate("commitAt");
    return new Begun(
        at, commitAt == null ? at : commitAt.toInstant(), doc.getString("configuration"));
  }

  /** An upload still being written whose writer started before {@code before}: it stopped. */
  public record Unfinished(String org, String uploadId, UploadForm form, Begun begun) {}

  /** How many uploads recorded before {@code before} were never marked done. */
  public long countUnfinished(Instant before) {
    return mongo.getCollection(FlakyCollections.UPLOADS).countDocuments(unfinishedBefore(before));
  }

  private static Bson unfinishedBefore(Instant before) {
    return Filters.and(Filters.eq("state", "writing"), Filters.lt("at", Date.from(before)));
  }

  /** Up to {@code limit} uploads recorded before {@code before} and never marked done. */
  public List<Unfinished> unfinished(Instant before, int limit) {
    List<Unfinished> found = new ArrayList<>();
    for (Document doc :
        mongo.getCollection(FlakyCollections.UPLOADS).find(unfinishedBefore(before)).limit(limit)) {
      String org = doc.getString("org");
      String uploadId = doc.getString("_id").substring(org.length() + 1);
      String[] repo = doc.getString("repo").split("/", 3);
      Number pr = doc.get("prNumber", Number.class);
      UploadForm form =
          new UploadForm(
              new Repo(repo[0], repo[1], repo[2]),
              doc.getString("commitSha"),
              doc.getString("branch"),
              pr == null ? null : pr.longValue(),
              doc.getString("variant"),
              doc.getString("jobUrl"),
              uploadId,
              null,
              null);
      found.add(new Unfinished(org, uploadId, form, begun(doc)));
    }
    return found;
  }

  public void done(String org, String uploadId) {
    mongo
        .getCollection(FlakyCollections.UPLOADS)
        .updateOne(Filters.eq("_id", org + "/" + uploadId), Updates.set("state", "done"));
  }
}
