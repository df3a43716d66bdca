package dev.trainyard.flaky.store;

import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.springframework.data.mongodb.core.MongoTemplate;

/** Creates the indexes the service's queries rely on (idempotent, at start). */
public final class FlakyIndexes {
  private FlakyIndexes() {}

  public static void create(MongoTemplate mongo, Duration retention) {
    // the listing: filter (org, repo, status) + keyset order (since desc, id asc)
    mongo
        .getCollection(FlakyCollections.TEST_CASES)
        .createIndex(
            Indexes.compoundIndex(
                Indexes.ascending("org", "repo", "status.value"),
                Indexes.descending("status.since"),
                Indexes.ascending("testId")));
    // the quarantine config of a repository
    mongo
        .getCollection(FlakyCollections.TEST_CASES)
        .createIndex(Indexes.ascending("org", "repo", "quarantine"));
    mongo
        .getCollection(FlakyCollections.TEST_RESULTS)
        .createIndex(
            Indexes.compoundIndex(Indexes.ascending("org", "testId"), Indexes.descending("at")));
    mongo
        .getCollection(FlakyCollections.TEST_RESULTS)
        .createIndex(
            Indexes.ascending("at"),
            new IndexOptions().expireAfter(retention.toSeconds(), TimeUnit.SECONDS));
    // MongoDB drops a spent nonce once its proof is stale (the embedded store ignores TTL)
    mongo
        .getCollection(FlakyCollections.SEEN_NONCES)
        .createIndex(
            Indexes.ascending("expiresAt"), new IndexOptions().expireAfter(0L, TimeUnit.SECONDS));
  }
}
