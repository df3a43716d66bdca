package dev.trainyard.common.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.ServerAddress;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import dev.trainyard.common.store.StoreIndexes.Declared;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.junit.jupiter.api.Test;

/**
 * Building the declared indexes never throws: a changed expiry is changed in place, a store that is
 * away leaves the build to be retried, and a conflict that is not an expiry is reported, not
 * forced.
 */
class StoreIndexesTest {
  private final List<Document> commands = new ArrayList<>();

  /** A store that answers each createIndex with {@code failure} (null: built). */
  private StoreIndexes.Target store(RuntimeException failure) {
    return new StoreIndexes.Target() {
      @Override
      public void createIndex(String collection, Bson keys, IndexOptions options) {
        if (failure != null) {
          throw failure;
        }
      }

      @Override
      public void runCommand(Document command) {
        commands.add(command);
      }
    };
  }

  private static MongoCommandException conflict() {
    return new MongoCommandException(
        BsonDocument.parse(
            "{ok: 0, code: 85, codeName: 'IndexOptionsConflict', errmsg: 'other options'}"),
        new ServerAddress());
  }

  @Test
  void aChangedExpiryIsChangedInPlace() {
    Declared results =
        Declared.expiring("flaky_test_results", "at", Duration.ofDays(7), "retention");

    assertThat(StoreIndexes.ensure(store(conflict()), List.of(results))).isTrue();

    assertThat(commands).hasSize(1);
    assertThat(commands.get(0).toJson())
        .isEqualTo(
            "{\"collMod\": \"flaky_test_results\","
                + " \"index\": {\"keyPattern\": {\"at\": 1}, \"expireAfterSeconds\": 604800}}");
  }

  @Test
  void aConflictOnAnIndexWithoutExpiryIsLeftForAnOperator() {
    Declared unique =
        new Declared(
            "github_deliveries",
            Indexes.ascending("digest"),
            new IndexOptions().unique(true),
            "dedup");

    assertThat(StoreIndexes.ensure(store(conflict()), List.of(unique))).isFalse();
    assertThat(commands).isEmpty();
  }

  @Test
  void aStoreThatIsAwayLeavesTheBuildToBeRetried() {
    Declared any = new Declared("queues", Indexes.ascending("nextDeadline"), "ticker");

    assertThat(StoreIndexes.ensure(store(new MongoTimeoutException("away")), List.of(any)))
        .isFalse();
    assertThat(StoreIndexes.ensure(store(null), List.of(any))).isTrue();
  }
}
