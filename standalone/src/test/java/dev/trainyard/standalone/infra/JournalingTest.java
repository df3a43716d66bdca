package dev.trainyard.standalone.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.WriteConcern;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.DeleteOneModel;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.InsertOneModel;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.Updates;
import de.bwaldvogel.mongo.MongoServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a kill leaves of the writes the store acknowledged (ADR 0022): every journaled write, with
 * every write acknowledged before it, and everything a read saw; of the writes that asked for no
 * journaling and came after the last of those, nothing is promised. The kill is simulated by
 * closing the store file without writing ({@code closeImmediately}), with the background commit
 * turned off, so each case is decided by the writes alone.
 */
class JournalingTest {
  private static final WriteConcern NO_JOURNAL = WriteConcern.ACKNOWLEDGED.withJournal(false);

  @TempDir Path dir;

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

  @Test
  void concurrentJournaledWritesAreAllKept() {
    int writers = 8;
    int each = 50;
    List<String> kept =
        killedAfter(
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
    String file = dir.resolve("trainyard.mv").toString();
    DurableH2Backend backend = new DurableH2Backend(file);
    backend.getMvStore().setAutoCommitDelay(0);
    MongoServer server = new MongoServer(backend);
    try {
      withCollection(
          server,
          c -> {
            writes.accept(
                c.withWriteConcern(WriteConcern.ACKNOWLEDGED), c.withWriteConcern(NO_JOURNAL));
            // the kill: before the client's goodbye (a command, which commits) and before the
            // server's shutdown (which closes the store, writing what is unsaved)
            backend.getMvStore().closeImmediately();
          });
    } finally {
      server.shutdownNow();
    }

    DurableH2Backend reopened = new DurableH2Backend(file);
    MongoServer again = new MongoServer(reopened);
    List<String> kept = new ArrayList<>();
    try {
      withCollection(
          again,
          c ->
              c.find()
                  .forEach(
                      d -> kept.add(d.get("_id") + (d.containsKey("n") ? ":" + d.get("n") : ""))));
    } finally {
      again.shutdownNow();
      reopened.close();
    }
    return kept;
  }

  private static void withCollection(MongoServer server, Consumer<MongoCollection<Document>> use) {
    try (MongoClient client =
        MongoClients.create("mongodb://127.0.0.1:" + server.bind().getPort())) {
      use.accept(client.getDatabase("trainyard").getCollection("writes"));
    }
  }
}
