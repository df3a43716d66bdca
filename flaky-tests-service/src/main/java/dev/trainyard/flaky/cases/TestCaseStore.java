package dev.trainyard.flaky.cases;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import com.mongodb.client.model.WriteModel;
import dev.trainyard.flaky.classify.Health;
import dev.trainyard.flaky.classify.Status;
import dev.trainyard.flaky.events.TestCaseEvent;
import dev.trainyard.flaky.ingest.Outcome;
import dev.trainyard.flaky.store.FlakyCollections;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.bson.Document;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * {@code flaky_test_cases}: one document per (organization, test id), {@code _id = org/testId}.
 * Ingestion writes identity, status and runs; the quarantine and ticket endpoints write only their
 * own fields, so neither overwrites the other.
 */
public class TestCaseStore {
  private final MongoTemplate mongo;

  public TestCaseStore(MongoTemplate mongo) {
    this.mongo = mongo;
  }

  public MongoCollection<Document> collection() {
    return mongo.getCollection(FlakyCollections.TEST_CASES);
  }

  public static String id(String org, String testId) {
    return org + "/" + testId;
  }

  /** The organization's test cases among {@code testIds}, by test id. */
  public Map<String, TestCase> find(String org, Collection<String> testIds) {
    List<String> ids = testIds.stream().map(t -> id(org, t)).toList();
    Map<String, TestCase> found = new HashMap<>();
    for (Document doc : collection().find(Filters.in("_id", ids))) {
      TestCase tc = fromDocument(doc);
      found.put(tc.testId(), tc);
    }
    return found;
  }

  /** The organization's test case {@code testId} of {@code repo}, if it exists. */
  public Optional<TestCase> find(String org, String repo, String testId) {
    Document doc = collection().find(Filters.eq("_id", id(org, testId))).first();
    return Optional.ofNullable(doc)
        .map(TestCaseStore::fromDocument)
        .filter(t -> t.repo().equals(repo));
  }

  /** Writes what ingestion owns of each test case, creating new ones. */
  public void save(List<TestCase> cases, Instant now) {
    List<WriteModel<Document>> writes = new ArrayList<>(cases.size());
    for (TestCase tc : cases) {
      Document set =
          new Document("org", tc.org())
              .append("repo", tc.repo())
              .append("testId", tc.testId())
              .append("name", tc.name())
              .append("classname", tc.classname())
              .append("parent", tc.parent())
              .append("filePath", tc.filePath())
              .append("variant", tc.variant())
              .append("status", status(tc.status()))
              .append("runs", tc.runs().stream().map(TestCaseStore::run).toList())
              .append("updatedAt", Date.from(now));
      writes.add(
          new UpdateOneModel<>(
              Filters.eq("_id", id(tc.org(), tc.testId())),
              Updates.combine(
                  new Document("$set", set),
                  Updates.setOnInsert("quarantine", QuarantineSetting.UNSPECIFIED.name()),
                  Updates.setOnInsert("quarantineVersion", 0)),
              new UpdateOptions().upsert(true)));
    }
    if (!writes.isEmpty()) {
      collection().bulkWrite(writes, new BulkWriteOptions().ordered(false));
    }
  }

  /**
   * Sets the override if nobody changed it since {@code version} was read, together with the event
   * that tells of it as {@code pendingEvent} (published after this write, then cleared — so a crash
   * in between leaves it to be published by the next request on the test case); false otherwise.
   */
  public boolean setQuarantine(
      String org,
      String testId,
      int version,
      QuarantineSetting setting,
      String reason,
      TestCaseEvent pending) {
    return collection()
            .updateOne(
                Filters.and(
                    Filters.eq("_id", id(org, testId)), Filters.eq("quarantineVersion", version)),
                Updates.combine(
                    Updates.set("quarantine", setting.name()),
                    Updates.set("quarantineVersion", version + 1),
                    Updates.set("quarantineReason", reason),
                    Updates.set(
                        "pendingEvent",
                        new Document("id", pending.id())
                            .append("org", pending.org())
                            .append("type", pending.type())
                            .append("testId", pending.testId())
                            .append("body", pending.body()))))
            .getMatchedCount()
        == 1;
  }

  /** The event a quarantine change stored but has not published yet, if any. */
  public Optional<TestCaseEvent> pendingEvent(String org, String testId) {
    Document doc =
        collection()
            .find(Filters.eq("_id", id(org, testId)))
            .projection(new Document("pendingEvent", 1))
            .first();
    Document e = doc == null ? null : doc.get("pendingEvent", Document.class);
    return e == null
        ? Optional.empty()
        : Optional.of(
            new TestCaseEvent(
                e.getString("id"),
                e.getString("org"),
                e.getString("type"),
                e.getString("testId"),
                e.getString("body")));
  }

  /** Forgets the pending event once published (only that one: a newer change keeps its own). */
  public void clearPendingEvent(String org, String testId, String eventId) {
    collection()
        .updateOne(
            Filters.and(Filters.eq("_id", id(org, testId)), Filters.eq("pendingEvent.id", eventId)),
            Updates.unset("pendingEvent"));
  }

  public void setTicket(String org, String testId, String url) {
    collection().updateOne(Filters.eq("_id", id(org, testId)), Updates.set("ticket", url));
  }

  static Document status(Status status) {
    return new Document("value", status.value().wire())
        .append("reason", status.reason())
        .append("since", Date.from(status.since()));
  }

  static Document run(RecentRun r) {
    return new Document("u", r.uploadId())
        .append("sha", r.commitSha())
        .append("br", r.branch())
        .append("pr", r.prNumber())
        .append("o", r.outcome().name())
        .append("at", Date.from(r.at()))
        .append("ca", Date.from(r.commitAt()));
  }

  public static TestCase fromDocument(Document doc) {
    Document s = doc.get("status", Document.class);
    Status status =
        new Status(
            Health.valueOf(s.getString("value").toUpperCase(Locale.ROOT)),
            s.getString("reason"),
            s.getDate("since").toInstant());
    List<RecentRun> runs = new ArrayList<>();
    for (Document r : doc.getList("runs", Document.class, List.of())) {
      Number pr = r.get("pr", Number.class);
      Instant at = r.getDate("at").toInstant();
      Date commitAt = r.getDate("ca"); // absent in documents written before it was kept
      runs.add(
          new RecentRun(
              r.getString("u"),
              r.getString("sha"),
              r.getString("br"),
              pr == null ? null : pr.longValue(),
              Outcome.valueOf(r.getString("o")),
              at,
              commitAt == null ? at : commitAt.toInstant()));
    }
    String quarantine = doc.getString("quarantine");
    Number version = doc.get("quarantineVersion", Number.class);
    return new TestCase(
        doc.getString("org"),
        doc.getString("repo"),
        doc.getString("testId"),
        doc.getString("name"),
        doc.getString("classname"),
        doc.getString("parent"),
        doc.getString("filePath"),
        doc.getString("variant"),
        status,
        runs,
        quarantine == null ? QuarantineSetting.UNSPECIFIED : QuarantineSetting.valueOf(quarantine),
        version == null ? 0 : version.intValue(),
        doc.getString("ticket"));
  }
}
