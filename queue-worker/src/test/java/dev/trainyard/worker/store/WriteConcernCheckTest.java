package dev.trainyard.worker.store;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.ConnectionString;
import com.mongodb.MongoCommandException;
import com.mongodb.ServerAddress;
import com.mongodb.WriteConcern;
import dev.trainyard.common.boot.StoreClient;
import java.util.List;
import java.util.function.Supplier;
import org.bson.BsonDocument;
import org.bson.Document;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which write concerns the queue store starts with, from connection strings as operators write
 * them, against a three-member replica set, a standalone server and the embedded store (which knows
 * no {@code hello}).
 */
class WriteConcernCheckTest {
  @ParameterizedTest(name = "{0} on {1}: {2}")
  @CsvSource({
    "'', replica set, starts",
    "?w=majority, replica set, starts",
    "?w=majority&journal=false, replica set, starts",
    "?w=3, replica set, starts",
    "?w=2, replica set, starts",
    "?w=1, replica set, refused",
    "?w=0, replica set, refused",
    "?w=2, five members two of them arbiters, refused",
    "?w=3, five members two of them arbiters, starts",
    "?w=1, standalone, starts",
    "?w=1, embedded, starts",
    "?w=0, embedded, refused",
  })
  void aConcernBelowTheMajorityIsRefused(String options, String server, String expected) {
    ConnectionString uri = new ConnectionString("mongodb://db.example/trainyard" + options);
    WriteConcern concern =
        uri.getWriteConcern() == null ? StoreClient.DURABLE : uri.getWriteConcern();
    Supplier<Document> hello =
        switch (server) {
          case "replica set" ->
              () ->
                  new Document("setName", "rs0")
                      .append("hosts", List.of("a:27017", "b:27017", "c:27017"));
          case "five members two of them arbiters" ->
              () ->
                  new Document("setName", "rs0")
                      .append("hosts", List.of("a:27017", "b:27017", "c:27017"))
                      .append("arbiters", List.of("d:27017", "e:27017"));
          case "standalone" -> () -> new Document("isWritablePrimary", true);
          default ->
              () -> {
                throw new MongoCommandException(
                    BsonDocument.parse("{ok: 0, errmsg: 'no such command: hello', code: 59}"),
                    new ServerAddress());
              };
        };
    if (expected.equals("starts")) {
      assertThatCode(() -> WriteConcernCheck.require(concern, hello)).doesNotThrowAnyException();
    } else {
      assertThatThrownBy(() -> WriteConcernCheck.require(concern, hello))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("rolled back");
    }
  }
}
