package dev.trainyard.standalone.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.WriteConcern;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.DeleteOneModel;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.InsertOneModel;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.Updates;
import de.bwaldvogel.mongo.MongoServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a kill leaves of the writes the store acknowledged (ADR 0022, 0051): every journaled write,
 * with every write acknowledged before it, and everything a read saw; of the writes that asked for
 * no journaling and came after the last of those, a prefix, each write whole. The kill is simulated
 * by closing the store file without writing ({@code closeImmediately}), with the timed commits
 * turned off, so each case is decided by the writes alone, or on, to race them.
 */
class JournalingTest {
  private static final String WRITES = "writes";
  private static final WriteConcern NO_JOURNAL = WriteConcern.ACKNOWLEDGED.withJournal(false);

  @TempDir Path dir;

  /** Kills so far: each starts on a file of its own. */
  private int kills;

  @Test
  void aJournaledWriteIsCommittedBeforeItIsAcknowledged() {
    List<String> kept =
        killedAfter(
            (journaled, unjournaled) -> {
              journaled.insertOne(new Document("_id", "a"));
              journaled.updateOne(Filters.eq("_id", "a"), Updates.set("n", 1));
              journaled.insertOne(new Document("_id", "b"));
              journaled.deleteOne(Filters.eq("_id", "b"));
            });

    assertThat(kept).containsExactly("a:1");
  }

  @Test
  void unjournaledWritesAreNotCommittedOnTheirOwn() {
    List<String> kept =
        killedAfter(
            (journaled, unjournaled) -> {
              journaled.insertOne(new Document("_id", "before").append("n", 0));
              unjournaled.insertOne(new Document("_id", "a"));
              unjournaled.bulkWrite(
                  List.of(
                      new InsertOneModel<>(new Document("_id", "b")),
                      new ReplaceOneModel<>(
                          Filters.eq("_id", "before"),
                          new Document("n", 1),
                          new ReplaceOptions().upsert(true)),
                      new DeleteOneModel<>(Filters.eq("_id", "a"))));
            });

    assertThat(kept).as("the file as the journaled write left it").containsExactly("before:0");
  }

  @Test
  void aJournaledWriteMakesTheUnjournaledOnesBeforeItDurable() {
    List<String> kept =
        killedAfter(
            (journaled, unjournaled) -> {
              unjournaled.insertOne(new Document("_id", "entry").append("n", 1));
              unjournaled.updateOne(Filters.eq("_id", "entry"), Updates.set("n", 2));
              journaled.insertOne(new Document("_id", "outbox"));
              journaled.insertOne(new Document("_id", "queue"));
            });

    assertThat(kept).containsExactlyInAnyOrder("entry:2", "outbox", "queue");
  }

  @Test
  void whatAReadSawIsDurableBeforeItIsAnswered() {
    List<String> kept =
        killedAfter(
            (journaled, unjournaled) -> {
              journaled.insertOne(new Document("_id", "before"));
              unjournaled.insertOne(new Document("_id", "seen").append("n", 1));
              assertThat(journaled.find(Filters.eq("_id", "seen")).first()).isNotNull();
              unjournaled.insertOne(new Document("_id", "after the read"));
            });

    assertThat(kept).as("a reader may act on what it saw").contains("before", "seen:1");
  }

  /** Grouped commits, with and without the timed commits racing them (every millisecond). */
  @ParameterizedTest
  @ValueSource(longs = {0, 1})
  void concurrentJournaledWritesAreAllKept(long commitEveryMillis) {
    int writers = 8;
    int each = 50;
    List<String> kept =
        killedAfter(
            Duration.ofMillis(commitEveryMillis),
            (journaled, unjournaled) -> {
              ExecutorService pool = Executors.newFixedThreadPool(writers);
              try {
                List<Future<?>> done = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                  String writer = "w" + w;
                  done.add(
                      pool.submit(
                          () -> {
                            for (int i = 0; i < each; i++) {
                              unjournaled.insertOne(new Document("_id", writer + "-u" + i));
                              journaled.insertOne(new Document("_id", writer + "-j" + i));
                            }
                          }));
                }
                for (Future<?> f : done) {
                  f.get(60, TimeUnit.SECONDS);
                }
              } catch (Exception e) {
                throw new AssertionError(e);
              } finally {
                pool.shutdownNow();
              }
            });

    assertThat(kept)
        .as("every acknowledged journaled write, and every write acknowledged before one")
        .hasSize(writers * each * 2);
  }

  /**
   * Outboxes and the queue documents that name them, both unjournaled, each write a batch of
   * documents, while the store commits every millisecond on its own. MVStore's own commit took each
   * map's newest state in turn while writes went on, so it could keep part of a write, a document
   * without its {@code _id} index entry, or a queue document without its outbox. Whatever the kill
   * keeps is a prefix of the writes in the order they were acknowledged, each write whole.
   */
  @Test
  void aKillKeepsAPrefixOfTheUnjournaledWritesEachWhole() {
    int batch = 50;
    int roundsThatLostWrites = 0;
    for (int round = 0; round < 10; round++) {
      int writes = 20 + 4 * round;
      Map<String, List<String>> kept =
          killedAfter(
              Duration.ofMillis(1),
              db -> {
                MongoCollection<Document> outboxes =
                    db.getCollection("outboxes").withWriteConcern(NO_JOURNAL);
                MongoCollection<Document> queues =
                    db.getCollection("queues").withWriteConcern(NO_JOURNAL);
                for (int i = 0; i < writes; i++) {
                  List<Document> documents =
                      IntStream.range(i * batch, (i + 1) * batch)
                          .mapToObj(id -> new Document("_id", id))
                          .toList();
                  outboxes.insertMany(documents);
                  queues.insertMany(documents);
                }
              });
      List<String> outboxes = kept.getOrDefault("outboxes", List.of());
      List<String> queues = kept.getOrDefault("queues", List.of());
      assertThat(outboxes).as("round %d: the timed commits kept something", round).isNotEmpty();
      assertThat(outboxes)
          .as("round %d: a prefix of the outboxes, whole writes", round)
          .isEqualTo(ids(outboxes.size()))
          .hasSize(outboxes.size() / batch * batch);
      assertThat(queues)
          .as("round %d: a prefix of the queue documents, whole writes", round)
          .isEqualTo(ids(queues.size()))
          .hasSize(queues.size() / batch * batch);
      assertThat(outboxes.size() - queues.size())
          .as("round %d: every queue document kept has its outbox", round)
          .isIn(0, batch);
      if (queues.size() < writes * batch) {
        roundsThatLostWrites++;
      }
    }
    assertThat(roundsThatLostWrites)
        .as("kills that came before a timed commit took the last writes: the race was run")
        .isPositive();
  }

  private static List<String> ids(int n) {
    return IntStream.range(0, n).mapToObj(String::valueOf).toList();
  }

  @Test
  void theWriteConcernDecides() {
    assertThat(DurableH2Backend.journaled(new de.bwaldvogel.mongo.bson.Document("insert", "c")))
        .isTrue();
    assertThat(DurableH2Backend.journaled(command(new de.bwaldvogel.mongo.bson.Document("w", 1))))
        .isTrue();
    assertThat(
            DurableH2Backend.journaled(command(new de.bwaldvogel.mongo.bson.Document("j", true))))
        .isTrue();
    assertThat(
            DurableH2Backend.journaled(command(new de.bwaldvogel.mongo.bson.Document("j", false))))
        .isFalse();
  }

  private static de.bwaldvogel.mongo.bson.Document command(
      de.bwaldvogel.mongo.bson.Document concern) {
    return new de.bwaldvogel.mongo.bson.Document("insert", "c").append("writeConcern", concern);
  }

  /** What the collection holds after {@code writes} and a kill ({@code _id}, and {@code n}). */
  private List<String> killedAfter(
      BiConsumer<MongoCollection<Document>, MongoCollection<Document>> writes) {
    return killedAfter(Duration.ZERO, writes);
  }

  private List<String> killedAfter(
      Duration commitEvery,
      BiConsumer<MongoCollection<Document>, MongoCollection<Document>> writes) {
    return killedAfter(
            commitEvery,
            db -> {
              MongoCollection<Document> c = db.getCollection(WRITES);
              writes.accept(
                  c.withWriteConcern(WriteConcern.ACKNOWLEDGED), c.withWriteConcern(NO_JOURNAL));
            })
        .getOrDefault(WRITES, List.of());
  }

  /**
   * What each collection holds after {@code writes} and a kill, with the store committing what is
   * unsaved every {@code commitEvery} (never when zero).
   */
  private Map<String, List<String>> killedAfter(
      Duration commitEvery, Consumer<MongoDatabase> writes) {
    String file = dir.resolve("trainyard-" + kills++ + ".mv").toString();
    DurableH2Backend backend = new DurableH2Backend(file, commitEvery);
    MongoServer server = new MongoServer(backend);
    try {
      withDatabase(
          server,
          db -> {
            writes.accept(db);
            // the kill: before the client's goodbye (a command, which commits) and before the
            // server's shutdown (which closes the store, writing what is unsaved)
            backend.getMvStore().closeImmediately();
          });
    } finally {
      server.shutdownNow();
      backend.close(); // its timed commits stop; the store is closed already
    }

    DurableH2Backend reopened = new DurableH2Backend(file, Duration.ZERO);
    MongoServer again = new MongoServer(reopened);
    Map<String, List<String>> kept = new TreeMap<>();
    try {
      withDatabase(
          again,
          db -> {
            for (String name : db.listCollectionNames()) {
              MongoCollection<Document> c = db.getCollection(name);
              List<String> ids = new ArrayList<>();
              c.find()
                  .forEach(
                      d -> {
                        // its index holds it too: a commit did not take the document alone
                        assertThat(c.find(Filters.eq("_id", d.get("_id"))).first())
                            .as("%s in %s, found by its _id", d.get("_id"), name)
                            .isNotNull();
                        ids.add(d.get("_id") + (d.containsKey("n") ? ":" + d.get("n") : ""));
                      });
              kept.put(name, ids);
            }
          });
    } finally {
      again.shutdownNow();
      reopened.close();
    }
    return kept;
  }

  private static void withDatabase(MongoServer server, Consumer<MongoDatabase> use) {
    try (MongoClient client =
        MongoClients.create("mongodb://127.0.0.1:" + server.bind().getPort())) {
      use.accept(client.getDatabase("trainyard"));
    }
  }
}
