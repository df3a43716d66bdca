package dev.trainyard.flaky.cases;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.bulk.BulkWriteResult;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
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
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.bson.types.Binary;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * {@code flaky_test_cases}: one document per (organization, test id), {@code _id = org/testId}.
 * Ingestion writes identity, status and runs; the quarantine and ticket endpoints write only their
 * own fields, so neither overwrites the other.
 */
public class TestCaseStore {
  /** The version of what ingestion owns; compare-and-set on it (see {@link Write}). */
  static final String VERSION = "v";

  static final String WRITER = "w";

  /** When the test last ran (any branch): what expiry reads. */
  public static final String LAST_RUN = "lastRunAt";

  /**
   * Status events stored and not yet published, oldest first: a list, so a second transition stored
   * before the first is published does not replace it.
   */
  public static final String PENDING_STATUS_EVENTS = "pendingStatusEvents";

  /** The run history ({@link RunCodec}); {@link #LEGACY_RUNS} before it, replaced on a write. */
  public static final String HISTORY = "h";

  public static final String LEGACY_RUNS = "runs";

  /** When the test's status was last classified (by an upload or the sweeper). */
  public static final String EVALUATED = "evaluatedAt";

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

  /** Which of {@code testIds} are the organization's stored test cases (their ids only read). */
  public Set<String> existing(String org, Collection<String> testIds) {
    List<String> ids = testIds.stream().map(t -> id(org, t)).toList();
    Set<String> found = new HashSet<>();
    for (Document doc :
        collection().find(Filters.in("_id", ids)).projection(Projections.include("testId"))) {
      found.add(doc.getString("testId"));
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

  /**
   * One compare-and-set write of what ingestion owns of a test case: it applies only while the
   * document is at {@code next.version() - 1} (a new one only while there is none). {@code writer}
   * tells this write from another one that reached the same version (the upload's id). {@code
   * event} (null: none) is the status change it makes, kept on the document until it is published.
   */
  public record Write(TestCase next, String writer, TestCaseEvent event) {}

  /**
   * Applies each write whose document is still at the version it was read at, and returns the test
   * ids of those that another writer changed meanwhile (to be read and classified again). With
   * several replicas of the service, two uploads of one repository may classify the same test at
   * once; only one of them stores its result, the other starts over from it, so no run is lost.
   */
  public Set<String> save(List<Write> writes, Instant now) {
    List<WriteModel<Document>> models = new ArrayList<>(writes.size());
    Set<String> conflicts = new HashSet<>();
    for (Write w : writes) {
      TestCase tc = w.next();
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
              .append(HISTORY, new Binary(RunCodec.encode(tc.runs())))
              .append(VERSION, tc.version())
              .append(WRITER, w.writer())
              .append(EVALUATED, Date.from(now))
              .append("updatedAt", Date.from(now));
      tc.runs().stream()
          .map(RecentRun::at)
          .max(Instant::compareTo)
          .ifPresent(last -> set.append(LAST_RUN, Date.from(last)));
      long read = tc.version() - 1;
      Bson pending =
          w.event() == null
              ? new Document()
              : Updates.push(PENDING_STATUS_EVENTS, pending(w.event(), now));
      models.add(
          new UpdateOneModel<>(
              Filters.and(
                  Filters.eq("_id", id(tc.org(), tc.testId())),
                  read == 0 ? Filters.exists(VERSION, false) : Filters.eq(VERSION, read)),
              Updates.combine(
                  new Document("$set", set),
                  pending,
                  Updates.unset(LEGACY_RUNS),
                  Updates.setOnInsert("quarantine", QuarantineSetting.UNSPECIFIED.name()),
                  Updates.setOnInsert("quarantineVersion", 0)),
              new UpdateOptions().upsert(read == 0)));
    }
    if (models.isEmpty()) {
      return conflicts;
    }
    int applied;
    try {
      BulkWriteResult result =
          collection().bulkWrite(models, new BulkWriteOptions().ordered(false));
      applied = result.getMatchedCount() + result.getUpserts().size();
    } catch (MongoBulkWriteException e) {
      for (BulkWriteError error : e.getWriteErrors()) {
        if (error.getCategory() != ErrorCategory.DUPLICATE_KEY) {
          throw e;
        }
        conflicts.add(writes.get(error.getIndex()).next().testId()); // created by another writer
      }
      applied = e.getWriteResult().getMatchedCount() + e.getWriteResult().getUpserts().size();
    }
    if (applied + conflicts.size() < writes.size()) {
      conflicts.addAll(notApplied(writes));
    }
    return conflicts;
  }

  /** The writes whose document is not at their version by their writer: another writer won. */
  private Set<String> notApplied(List<Write> writes) {
    String org = writes.get(0).next().org();
    Map<String, Write> byId = new HashMap<>();
    writes.forEach(w -> byId.put(id(org, w.next().testId()), w));
    Set<String> lost = new HashSet<>();
    Set<String> seen = new HashSet<>();
    for (Document doc :
        collection()
            .find(Filters.in("_id", byId.keySet()))
            .projection(Projections.include(VERSION, WRITER))) {
      Write w = byId.get(doc.getString("_id"));
      seen.add(doc.getString("_id"));
      Number version = doc.get(VERSION, Number.class);
      if (version == null
          || version.longValue() != w.next().version()
          || !w.writer().equals(doc.getString(WRITER))) {
        lost.add(w.next().testId());
      }
    }
    byId.forEach(
        (id, w) -> {
          if (!seen.contains(id)) {
            lost.add(w.next().testId());
          }
        });
    return lost;
  }

  /** Notes that {@code testIds} were classified at {@code now} (nothing of theirs changed). */
  public void evaluated(String org, Collection<String> testIds, Instant now) {
    collection()
        .updateMany(
            Filters.in("_id", testIds.stream().map(t -> id(org, t)).toList()),
            Updates.set(EVALUATED, Date.from(now)));
  }

  /** Forgets the status events {@code published} once they are published. */
  public void clearPendingStatusEvents(List<TestCaseEvent> published) {
    if (published.isEmpty()) {
      return;
    }
    List<WriteModel<Document>> clears = new ArrayList<>(published.size());
    for (TestCaseEvent e : published) {
      clears.add(
          new UpdateOneModel<>(
              Filters.eq("_id", id(e.org(), e.testId())),
              Updates.pull(PENDING_STATUS_EVENTS, new Document("id", e.id()))));
    }
    collection().bulkWrite(clears, new BulkWriteOptions().ordered(false));
  }

  /**
   * Status events stored before {@code before} and still not published (the writer stopped between
   * storing and publishing), at most {@code limit}.
   */
  public List<TestCaseEvent> pendingStatusEvents(Instant before, int limit) {
    List<TestCaseEvent> events = new ArrayList<>();
    for (Document doc :
        collection()
            .find(Filters.lt(PENDING_STATUS_EVENTS + ".at", Date.from(before)))
            .projection(Projections.include(PENDING_STATUS_EVENTS))
            .limit(limit)) {
      for (Document e : doc.getList(PENDING_STATUS_EVENTS, Document.class, List.of())) {
        if (e.getDate("at").toInstant().isBefore(before)) {
          events.add(event(e));
        }
      }
    }
    return events;
  }

  private static Document pending(TestCaseEvent e, Instant now) {
    return new Document("id", e.id())
        .append("org", e.org())
        .append("type", e.type())
        .append("testId", e.testId())
        .append("body", e.body())
        .append("at", Date.from(now));
  }

  private static TestCaseEvent event(Document e) {
    return new TestCaseEvent(
        e.getString("id"),
        e.getString("org"),
        e.getString("type"),
        e.getString("testId"),
        e.getString("body"));
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
    return e == null ? Optional.empty() : Optional.of(event(e));
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

  public static TestCase fromDocument(Document doc) {
    Document s = doc.get("status", Document.class);
    Status status =
        new Status(
            Health.valueOf(s.getString("value").toUpperCase(Locale.ROOT)),
            s.getString("reason"),
            s.getDate("since").toInstant());
    Binary history = doc.get(HISTORY, Binary.class);
    List<RecentRun> runs = history != null ? RunCodec.decode(history.getData()) : legacyRuns(doc);
    String quarantine = doc.getString("quarantine");
    Number version = doc.get("quarantineVersion", Number.class);
    Number written = doc.get(VERSION, Number.class);
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
        doc.getString("ticket"),
        written == null ? 0 : written.longValue());
  }

  /** The history as documents written before {@link RunCodec} kept it: one sub-document a run. */
  private static List<RecentRun> legacyRuns(Document doc) {
    List<RecentRun> runs = new ArrayList<>();
    for (Document r : doc.getList(LEGACY_RUNS, Document.class, List.of())) {
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
    return runs;
  }
}
