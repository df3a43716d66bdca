package dev.trainyard.common.store;

import com.mongodb.MongoCommandException;
import com.mongodb.client.model.IndexOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.bson.BsonDocument;
import org.bson.Document;
import org.bson.conversions.Bson;

/**
 * The indexes a service's queries rely on, built off its start: a build runs in the background and
 * never fails or delays the start (an index build on a large collection takes longer than any
 * socket timeout, and a store that is away at start comes back), retrying while the store is away.
 * An index whose expiry changed (a retention setting) is changed in place ({@code collMod}), not
 * refused as MongoDB refuses a second index on the same keys with other options.
 */
public final class StoreIndexes {
  /** MongoDB's answer to an index on existing keys with other options. */
  static final int INDEX_OPTIONS_CONFLICT = 85;

  private static final Log log = LogFactory.getLog(StoreIndexes.class);
  private static final Duration RETRY = Duration.ofSeconds(30);

  /** One index: its collection, keys and options, and the queries it serves (for the reader). */
  public record Declared(String collection, Bson keys, IndexOptions options, String serves) {
    public Declared(String collection, Bson keys, String serves) {
      this(collection, keys, new IndexOptions(), serves);
    }

    /** An index that expires a document {@code after} its Date field {@code field}. */
    public static Declared expiring(String collection, String field, Duration after, String why) {
      return new Declared(
          collection,
          new Document(field, 1),
          new IndexOptions().expireAfter(after.toSeconds(), TimeUnit.SECONDS),
          why);
    }
  }

  /** Where indexes are built: a database through the synchronous or the reactive driver. */
  public interface Target {
    void createIndex(String collection, Bson keys, IndexOptions options);

    void runCommand(Document command);

    /** A database of the synchronous driver. */
    static Target of(com.mongodb.client.MongoDatabase database) {
      return new Target() {
        @Override
        public void createIndex(String collection, Bson keys, IndexOptions options) {
          database.getCollection(collection).createIndex(keys, options);
        }

        @Override
        public void runCommand(Document command) {
          database.runCommand(command);
        }
      };
    }
  }

  private StoreIndexes() {}

  /** Builds {@code declared} on a thread of its own, retrying every 30 s until all are there. */
  public static Thread ensureInBackground(Target database, List<Declared> declared) {
    Thread builder =
        new Thread(
            () -> {
              while (!ensure(database, declared)) {
                try {
                  Thread.sleep(RETRY.toMillis());
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return;
                }
              }
            },
            "store-indexes");
    builder.setDaemon(true);
    builder.start();
    return builder;
  }

  /**
   * Builds each declared index that is missing and changes the expiry of one that differs.
   *
   * @return true when every index is as declared
   */
  public static boolean ensure(Target database, List<Declared> declared) {
    boolean all = true;
    for (Declared index : declared) {
      try {
        database.createIndex(index.collection(), index.keys(), index.options());
      } catch (MongoCommandException e) {
        all &= e.getErrorCode() == INDEX_OPTIONS_CONFLICT && changeExpiry(database, index);
      } catch (RuntimeException e) {
        log.warn("index " + describe(index) + " not built yet: " + e);
        all = false;
      }
    }
    return all;
  }

  private static boolean changeExpiry(Target database, Declared index) {
    Long seconds = index.options().getExpireAfter(TimeUnit.SECONDS);
    if (seconds == null) {
      log.error(
          "index " + describe(index) + " exists with other options; drop it to have it built");
      return false;
    }
    BsonDocument keys = index.keys().toBsonDocument();
    database.runCommand(
        new Document("collMod", index.collection())
            .append(
                "index", new Document("keyPattern", keys).append("expireAfterSeconds", seconds)));
    log.info("expiry of index " + describe(index) + " is now " + seconds + " s");
    return true;
  }

  private static String describe(Declared index) {
    return index.keys().toBsonDocument().toJson() + " on " + index.collection();
  }
}
