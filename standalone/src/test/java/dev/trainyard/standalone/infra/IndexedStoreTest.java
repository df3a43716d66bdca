package dev.trainyard.standalone.infra;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The on-disk store's index use answers every query as the plain embedded store does
 * (mongo-java-server's own in-memory backend, which scans): the same rows in the same order, and
 * the same counts — on fresh data, after updates, replaces and deletes, after the file is opened
 * again (the indexes are rebuilt), and once an indexed field holds an array (the index is then left
 * unused).
 */
class IndexedStoreTest {
  private static final long BASE = 1_700_000_000_000L;
  private static final int ROWS = 3_000;
  private static final List<String> STATUSES = List.of("flaky", "broken", "healthy");

  @TempDir Path dir;

  /**
   * A query: its filter, its order (null: none; else total, as ties may come in any order), the
   * rows it skips and its limit (0: none).
   */
  record Case(String name, Bson filter, Bson sort, int skip, int limit) {
    Case(String name, Bson filter, Bson sort, int limit) {
      this(name, filter, sort, 0, limit);
    }
  }

  private static List<Case> cases() {
    Bson listing =
        Filters.and(
            Filters.eq("org", "b"), Filters.eq("repo", "r1"), Filters.eq("status.value", "flaky"));
    Bson forward = Sorts.orderBy(Sorts.descending("status.since"), Sorts.ascending("testId"));
    Bson backward = Sorts.orderBy(Sorts.ascending("status.since"), Sorts.descending("testId"));
    Date boundary = new Date(BASE + 20 * 60_000L);
    Bson after =
        Filters.or(
            Filters.lt("status.since", boundary),
            Filters.and(Filters.eq("status.since", boundary), Filters.gt("testId", "t01500")));
    Bson before =
        Filters.or(
            Filters.gt("status.since", boundary),
            Filters.and(Filters.eq("status.since", boundary), Filters.lt("testId", "t01500")));
    return List.of(
        new Case("first page", listing, forward, 26),
        new Case("page after a boundary", Filters.and(listing, after), forward, 26),
        new Case("page before a boundary", Filters.and(listing, before), backward, 26),
        new Case("last page", listing, backward, 26),
        new Case("whole listing", listing, forward, 0),
        new Case(
            "a range of the next key",
            Filters.and(
                listing,
                Filters.gte("status.since", new Date(BASE + 5 * 60_000L)),
                Filters.lt("status.since", boundary)),
            backward,
            0),
        new Case(
            "an empty range of the next key",
            Filters.and(
                listing,
                Filters.gt("status.since", boundary),
                Filters.lt("status.since", new Date(BASE))),
            forward,
            0),
        new Case(
            "one value of the next key, and a bound after it",
            Filters.and(
                listing,
                Filters.eq("status.since", boundary),
                Filters.or(Filters.gt("testId", "t01500"), Filters.lt("testId", "t00100"))),
            forward,
            0),
        new Case("skipped into", listing, forward, 7, 20),
        new Case("a prefix, order not served", Filters.eq("org", "b"), forward, 40),
        new Case(
            "a prefix, the rest of the index's order",
            Filters.eq("org", "b"),
            Sorts.orderBy(
                Sorts.ascending("repo", "status.value"),
                Sorts.descending("status.since"),
                Sorts.ascending("testId")),
            60),
        new Case(
            "a prefix, the index's order reversed",
            Filters.eq("org", "b"),
            Sorts.orderBy(
                Sorts.descending("repo", "status.value"),
                Sorts.ascending("status.since"),
                Sorts.descending("testId")),
            60),
        new Case(
            "a condition off the index", Filters.and(listing, Filters.eq("other", 3)), forward, 10),
        new Case("a set, not an equality", Filters.in("org", "a", "b"), forward, 30),
        new Case("no index at all", Filters.gt("other", 4), Sorts.ascending("testId"), 30),
        new Case("the second index", Filters.eq("other", 2), Sorts.ascending("org", "testId"), 0),
        new Case("a number of any kind", Filters.eq("other", 4L), Sorts.ascending("testId"), 0),
        new Case(
            "a range of numbers of every kind",
            Filters.and(Filters.gt("other", 1.5), Filters.lte("other", (1L << 53) + 389)),
            Sorts.ascending("testId"),
            0),
        new Case(
            "an id and more, matching",
            Filters.and(Filters.eq("_id", "t00042"), Filters.gte("other", 0)),
            null,
            0),
        new Case(
            "an id and more, not matching",
            Filters.and(Filters.eq("_id", "t00042"), Filters.lt("other", 0)),
            null,
            0),
        new Case(
            "an unknown id",
            Filters.and(Filters.eq("_id", "nope"), Filters.gte("other", 0)),
            null,
            0),
        new Case(
            "a missing field",
            Filters.and(Filters.eq("org", "a"), Filters.eq("repo", null)),
            null,
            0),
        new Case(
            "ids by a quoted prefix, and more",
            Filters.and(Filters.regex("_id", "^" + Pattern.quote("t001")), Filters.eq("org", "a")),
            Sorts.descending("testId"),
            0),
        new Case("ids by a prefix, then a class", Filters.regex("_id", "^t00[12]"), null, 0),
        new Case("ids by a prefix and a quantifier", Filters.regex("_id", "^t0010*"), null, 0),
        new Case("ids by a prefix no id has", Filters.regex("_id", "^u"), null, 0),
        new Case("ids by a prefix, any case", Filters.regex("_id", "^T0020", "i"), null, 0),
        new Case("ids by an alternation", Filters.regex("_id", "^t0001|t0029"), null, 0),
        new Case("ids by a pattern not anchored", Filters.regex("_id", "99$"), null, 0),
        new Case(
            "ids by an operator form",
            new Document("_id", new Document("$regex", "^t0002").append("$options", "")),
            Sorts.ascending("testId"),
            5));
  }

  @Test
  void answersAsTheUnindexedStoreDoes() {
    MongoServer plain = new MongoServer(new MemoryBackend());
    InetSocketAddress address = plain.bind();
    try (MongoClient reference =
        MongoClients.create("mongodb://127.0.0.1:" + address.getPort() + "/t")) {
      MongoCollection<Document> expected = reference.getDatabase("t").getCollection("cases");
      List<Document> rows = rows();
      Path file = dir.resolve("store");
      inBoth(file, expected, c -> setUp(c, rows), "fresh");
      inBoth(file, expected, IndexedStoreTest::change, "changed");
      inBoth(file, expected, c -> {}, "reopened");
      inBoth(
          file,
          expected,
          c -> c.insertOne(row(ROWS + 1).append("org", List.of("a", "b"))),
          "an array in an indexed field");
    } finally {
      plain.shutdownNow();
    }
  }

  /** Applies {@code change} to both stores, then compares every case (the file is reopened). */
  private void inBoth(
      Path file,
      MongoCollection<Document> expected,
      Consumer<MongoCollection<Document>> change,
      String phase) {
    try (DocumentStore store = onDisk(file);
        MongoClient client = MongoClients.create(store.uri("t"))) {
      MongoCollection<Document> actual = client.getDatabase("t").getCollection("cases");
      change.accept(expected);
      change.accept(actual);
      List<Executable> checks = new ArrayList<>();
      for (Case c : cases()) {
        checks.add(() -> assertEquals(ids(expected, c), ids(actual, c), phase + ": " + c.name()));
        checks.add(
            () ->
                assertEquals(
                    expected.countDocuments(c.filter()),
                    actual.countDocuments(c.filter()),
                    phase + ": count of " + c.name()));
      }
      assertAll(checks);
    }
  }

  private static DocumentStore onDisk(Path file) {
    try {
      return DocumentStore.onDisk(file, 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> ids(MongoCollection<Document> collection, Case c) {
    var found = collection.find(c.filter());
    if (c.sort() != null) {
      found = found.sort(c.sort());
    }
    if (c.limit() > 0) {
      found = found.limit(c.limit());
    }
    if (c.skip() > 0) {
      found = found.skip(c.skip());
    }
    List<String> ids = new ArrayList<>();
    found.forEach(d -> ids.add(d.getString("_id")));
    if (c.sort() == null) {
      Collections.sort(ids); // no order asked for: any order is right
    }
    return ids;
  }

  private static void setUp(MongoCollection<Document> collection, List<Document> rows) {
    collection.createIndex(
        Indexes.compoundIndex(
            Indexes.ascending("org", "repo", "status.value"),
            Indexes.descending("status.since"),
            Indexes.ascending("testId")));
    collection.insertMany(rows.subList(0, ROWS / 2));
    collection.createIndex(Indexes.ascending("other", "org"));
    collection.insertMany(rows.subList(ROWS / 2, rows.size()));
  }

  /** Moves keys (updates, a versioned replace), keeps them (updates elsewhere), deletes rows. */
  private static void change(MongoCollection<Document> collection) {
    collection.updateMany(
        Filters.eq("other", 1),
        Updates.combine(
            Updates.set("status.value", "broken"),
            Updates.set("status.since", new Date(BASE + 99 * 60_000L))));
    collection.replaceOne(
        Filters.and(Filters.eq("_id", "t00007"), Filters.eq("version", 1)),
        row(7).append("version", 2).append("org", "b"));
    collection.replaceOne(
        Filters.and(Filters.eq("_id", "t00008"), Filters.eq("version", 5)),
        row(8).append("org", "b"));
    // a field no index holds (the indexes keep their keys), and a key of another kind, same value
    collection.updateMany(Filters.eq("other", 2), Updates.set("note", "changed"));
    collection.updateMany(Filters.eq("other", 3), Updates.set("other", 3L));
    collection.updateMany(Filters.eq("other", 4), Updates.set("other", 4.0));
    collection.deleteMany(Filters.eq("other", 5));
    collection.deleteOne(Filters.eq("_id", "t00100"));
  }

  /** Rows in a shuffled order, with many equal timestamps, so ties are broken by test id. */
  private static List<Document> rows() {
    List<Document> rows = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      rows.add(row(i));
    }
    Collections.shuffle(rows, new Random(7));
    return rows;
  }

  /**
   * A number, of the kinds a field can hold: mostly a small int, some small longs, some doubles,
   * and a few longs past what a double holds exactly; the index orders them as numbers, whatever
   * their kind.
   */
  private static Object other(int i) {
    if (i % 13 == 0) {
      return (long) (i % 7);
    } else if (i % 17 == 0) {
      return i % 7 + 0.5;
    } else if (i % 389 == 0) {
      return (1L << 53) + i;
    }
    return i % 7;
  }

  private static Document row(int i) {
    String id = String.format("t%05d", i);
    Document row =
        new Document("_id", id)
            .append("org", i % 2 == 0 ? "a" : "b")
            .append(
                "status",
                new Document("value", STATUSES.get(i % 3))
                    .append("since", new Date(BASE + (i % 40) * 60_000L)))
            .append("testId", id)
            .append("other", other(i))
            .append("version", 1);
    if (i % 11 != 0) {
      row.append("repo", "r" + (i % 4));
    }
    return row;
  }
}
