package dev.trainyard.standalone.support;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import dev.trainyard.common.store.StoreIndexes.Declared;
import dev.trainyard.common.webhook.WebhookDocuments;
import dev.trainyard.flaky.store.FlakyIndexes;
import dev.trainyard.gateway.config.GatewayIndexes;
import dev.trainyard.worker.store.WorkerIndexes;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.bson.Document;

/**
 * The indexes the services declare, and the queries the embedded store saw no index serve (as
 * MongoDB's {@code notablescan} would refuse them).
 */
public final class IndexCoverage {
  public static final List<Declared> DECLARED =
      Stream.of(
              WorkerIndexes.DECLARED,
              GatewayIndexes.DECLARED,
              WebhookDocuments.INDEXES,
              FlakyIndexes.declared(Duration.ofDays(30)))
          .flatMap(List::stream)
          .toList();

  private IndexCoverage() {}

  /** The queries seen unserved since {@link #watch}; a test's own survey can be set aside. */
  public static final class Watch {
    private final Set<String> unindexed = ConcurrentHashMap.newKeySet();
    private volatile boolean aside;

    public Set<String> unindexed() {
      return Set.copyOf(unindexed);
    }

    /** Runs a test's own queries (not the services') unwatched. */
    public <T> T aside(Supplier<T> survey) {
      aside = true;
      try {
        return survey.get();
      } finally {
        aside = false;
      }
    }
  }

  /**
   * Waits until every declared index exists (the services build them in the background at their
   * start), then collects the shape of each query no index serves, from now on; the store's own
   * {@code system.} collections aside.
   */
  public static Watch watch(EmbeddedInfrastructure infrastructure) {
    try (MongoClient client = MongoClients.create(infrastructure.mongoUri())) {
      MongoDatabase db = client.getDatabase("trainyard");
      Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> DECLARED.stream().allMatch(d -> exists(db, d)));
    }
    Watch watch = new Watch();
    infrastructure
        .store()
        .onUnindexedQuery(
            shape -> {
              if (!shape.startsWith("system.") && !watch.aside) {
                watch.unindexed.add(shape);
              }
            });
    return watch;
  }

  private static boolean exists(MongoDatabase db, Declared index) {
    Document keys = Document.parse(index.keys().toBsonDocument().toJson());
    for (Document existing : db.getCollection(index.collection()).listIndexes()) {
      if (existing.get("key", Document.class).equals(keys)) {
        return true;
      }
    }
    return false;
  }
}
