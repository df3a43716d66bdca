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
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.ObjectId;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
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
  void anIndexKeyComesBackWithAMissingFieldApartFromANullOne() {
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
    // the index normalizes a key before it looks it up or stores it: 2 and 2L are then one key
    assertThat(type.compare(new KeyValue(2L).normalized(), new KeyValue(2).normalized())).isZero();
    assertThat(type.compare(new KeyValue("q-10"), new KeyValue("q-9"))).isNegative();
    assertThat(type.compare(new KeyValue("a", 2), new KeyValue("a", 1))).isPositive();
    assertThat(type.compare(new KeyValue("a"), new KeyValue("a", 1))).isNegative();
    // the same double, yet two values: two keys, as before
    assertThat(
            type.compare(
                new KeyValue(9_007_199_254_740_993L), new KeyValue(9_007_199_254_740_992L)))
        .isNotZero();
    assertThat(type.compare(new KeyValue(Missing.getInstance()), new KeyValue((Object) null)))
        .isNotZero();
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
