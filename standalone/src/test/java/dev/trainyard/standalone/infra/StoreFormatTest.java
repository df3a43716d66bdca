package dev.trainyard.standalone.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.bson.BinData;
import de.bwaldvogel.mongo.bson.BsonJavaScript;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.ObjectId;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.DataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store file's encoding: documents and index keys come back as they were written, index keys
 * are ordered by value, and a file the H2 backend wrote the old way opens with everything in it.
 */
class StoreFormatTest {
  @TempDir Path dir;

  @Test
  void aDocumentComesBackWithEveryValueAsItWas() {
    Document nested = new Document("state", "testing").append("attempt", 2);
    Document document =
        new Document("_id", "q-1")
            .append("version", 41L)
            .append("count", 7)
            .append("ratio", 0.25)
            .append("paused", true)
            .append("nothing", null)
            .append("at", Instant.ofEpochMilli(1_764_000_000_123L))
            .append("oid", new ObjectId())
            .append("bytes", new BinData(new byte[] {1, 2, 3}))
            .append("view", nested)
            .append("list", List.of("a", 1, new Document("x", 1L)));

    Document read = roundTrip(new DocumentType(), document);

    assertThat(read).isEqualTo(document);
    assertThat(new ArrayList<>(read.keySet())).isEqualTo(new ArrayList<>(document.keySet()));
    assertThat(read.get("version")).isInstanceOf(Long.class);
    assertThat(read.get("count")).isInstanceOf(Integer.class);
  }

  @Test
  void anIndexKeyComesBackAsItWas() {
    KeyValue key = new KeyValue("acme", Missing.getInstance(), null, 3L);

    KeyValue read = roundTrip(new IndexKeyType(), key);

    assertThat(read).isEqualTo(key);
    assertThat(read.get(1)).isSameAs(Missing.getInstance());
    assertThat(read.get(2)).isNull();
  }

  @Test
  void indexKeysAreOrderedByValueNotByTheirBytes() {
    IndexKeyType type = new IndexKeyType();
    assertThat(type.compare(new KeyValue(2), new KeyValue(10))).isNegative();
    assertThat(type.compare(new KeyValue("q-10"), new KeyValue("q-9"))).isNegative();
    assertThat(type.compare(new KeyValue("a", 2), new KeyValue("a", 1))).isPositive();
    assertThat(type.compare(new KeyValue("a"), new KeyValue("a", 1))).isNegative();
  }

  /**
   * The map's order is total and calls two keys the same exactly when they are equal, over values
   * where a comparison by value goes wrong: longs and doubles that round to each other, NaN, the
   * two zeros, huge and tiny numbers, and types mongo-java-server refuses to order.
   */
  @Test
  void indexKeysAreInATotalOrderThatAgreesWithEquality() {
    double threeBillion = 3e9;
    List<Object> values =
        List.of(
            Double.NaN,
            -0.0,
            0.0,
            threeBillion,
            Math.nextUp(threeBillion),
            threeBillion + Math.pow(2, -14),
            2_147_483_647.5,
            2_147_483_647,
            9_007_199_254_740_992L,
            9_007_199_254_740_993L,
            Long.MAX_VALUE,
            2e18,
            1e300,
            "a",
            "b",
            true,
            Instant.ofEpochMilli(5),
            new ObjectId(),
            new BsonRegularExpression("a.*", "i"),
            new BsonRegularExpression("b.*", ""),
            new BsonJavaScript("1"),
            new Document("x", 1),
            new Document("x", 1).append("y", 2),
            List.of(1, 5),
            List.of(1, 7));
    List<KeyValue> keys = new ArrayList<>();
    for (Object value : values) {
      keys.add(new KeyValue(value).normalized());
    }
    keys.add(new KeyValue((Object) null));
    IndexKeyType type = new IndexKeyType();
    for (KeyValue x : keys) {
      for (KeyValue y : keys) {
        int xy = Integer.signum(type.compare(x, y));
        assertThat(xy).as("%s vs %s", x, y).isEqualTo(-Integer.signum(type.compare(y, x)));
        assertThat(xy == 0).as("%s same as %s", x, y).isEqualTo(x.equals(y));
        for (KeyValue z : keys) {
          if (xy <= 0 && type.compare(y, z) <= 0) {
            assertThat(type.compare(x, z)).as("%s <= %s <= %s", x, y, z).isNotPositive();
          }
        }
      }
    }
  }

  /**
   * An upgrade stopped halfway (a kill, an exception) leaves the file as it was: the store it runs
   * on must not commit by itself, not even when its unsaved pages pass MVStore's memory threshold
   * (about 19 MB), which this store's 40 MB do.
   */
  @Test
  void anUpgradeStoppedHalfwayLeavesTheFileAsItWas() {
    String file = dir.resolve("trainyard.mv").toString();
    int documents = 20_000;
    try (MVStore old = MVStore.open(file)) {
      for (String collection : List.of("a", "b")) {
        MVMap<Object, Object> rows =
            old.openMap(StoreFormat.DATA_PREFIX + "trainyard." + collection);
        for (int i = 0; i < documents; i++) {
          rows.put("r-" + i, new Document("_id", "r-" + i).append("text", "x".repeat(1_000)));
        }
      }
    }

    MVStore upgrading = StoreFormat.withoutOwnCommits(file);
    StoreFormat.rewrite(
        upgrading,
        StoreFormat.DATA_PREFIX + "trainyard.a",
        () -> StoreFormat.documents(upgrading, StoreFormat.DATA_PREFIX + "trainyard.a"));
    upgrading.closeImmediately(); // killed before the second map and the commit

    try (MVStore after = MVStore.open(file)) {
      assertThat(after.getStoreVersion()).isZero();
      MVMap<Object, Object> rows = after.openMap(StoreFormat.DATA_PREFIX + "trainyard.a");
      assertThat(rows.sizeAsLong()).isEqualTo(documents);
      assertThat(rows.get("r-7")).isInstanceOf(Document.class);
    }
    try (MVStore reopened = StoreFormat.open(file)) {
      assertThat(reopened.getStoreVersion()).isEqualTo(StoreFormat.BSON);
      for (String collection : List.of("a", "b")) {
        MVMap<Object, Document> rows =
            StoreFormat.documents(reopened, StoreFormat.DATA_PREFIX + "trainyard." + collection);
        assertThat(rows.sizeAsLong()).isEqualTo(documents);
        assertThat(rows.get("r-7")).containsEntry("_id", "r-7");
      }
    }
  }

  @Test
  void aFileTheH2BackendWroteOpensWithItsDocumentsAndItsUniqueIndex() throws IOException {
    Path file = dir.resolve("trainyard.mv");
    MongoServer old = new MongoServer(new H2Backend(file.toString()));
    try {
      withRows(
          "mongodb://127.0.0.1:" + old.bind().getPort() + "/trainyard",
          rows -> {
            rows.createIndex(
                Indexes.ascending("org", "key"), new IndexOptions().unique(true).name("by_key"));
            for (int i = 0; i < 500; i++) {
              rows.insertOne(
                  new org.bson.Document("_id", "r-" + i).append("org", "o").append("key", i));
            }
          });
    } finally {
      old.shutdownNow();
    }
    try (MVStore before = MVStore.open(file.toString())) {
      assertThat(before.getStoreVersion()).isZero();
    }

    for (int opening = 1; opening <= 2; opening++) {
      try (DocumentStore store = DocumentStore.onDisk(dir, 0)) {
        withRows(
            store.uri("trainyard"),
            rows -> {
              assertThat(rows.countDocuments()).isEqualTo(500);
              assertThat(rows.find(Filters.eq("_id", "r-250")).first()).containsEntry("key", 250);
              assertThatThrownBy(
                      () -> rows.insertOne(new org.bson.Document("_id", "r-0").append("key", -1)))
                  .isInstanceOf(MongoWriteException.class)
                  .hasMessageContaining("duplicate key");
              assertThatThrownBy(
                      () ->
                          rows.insertOne(
                              new org.bson.Document("_id", "other")
                                  .append("org", "o")
                                  .append("key", 7)))
                  .isInstanceOf(MongoWriteException.class)
                  .hasMessageContaining("duplicate key");
            });
      }
    }
    try (MVStore after = MVStore.open(file.toString())) {
      assertThat(after.getStoreVersion()).isEqualTo(StoreFormat.BSON);
    }
  }

  private static <T> T roundTrip(DataType<T> type, T value) {
    WriteBuffer out = new WriteBuffer();
    out.put((byte) 9); // a page holds other entries before this one
    type.write(out, value);
    out.put((byte) 7);
    ByteBuffer in = out.getBuffer().flip();
    in.get();
    T read = type.read(in);
    assertThat(in.get()).as("read exactly its own bytes").isEqualTo((byte) 7);
    return read;
  }

  private static void withRows(String uri, Consumer<MongoCollection<org.bson.Document>> use) {
    try (MongoClient client = MongoClients.create(uri)) {
      use.accept(client.getDatabase("trainyard").getCollection("rows"));
    }
  }
}
