package dev.trainyard.flaky.store;

import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import dev.trainyard.common.store.StoreIndexes.Declared;
import java.time.Duration;
import java.util.List;

/** The indexes of the service's collections, each with the queries it serves. */
public final class FlakyIndexes {
  private FlakyIndexes() {}

  /**
   * @param retention how long per-run results and uploads are kept ({@code
   *     TRAINYARD_FLAKY_RETENTION}): a changed setting changes the expiry of the indexes that hold
   *     it
   */
  public static List<Declared> declared(Duration retention) {
    return List.of(
        new Declared(
            FlakyCollections.TEST_CASES,
            Indexes.compoundIndex(
                Indexes.ascending("org", "repo", "status.value"),
                Indexes.descending("status.since"),
                Indexes.ascending("testId")),
            "the listing: (org, repo, status), keyset order (since desc, id asc)"),
        new Declared(
            FlakyCollections.TEST_CASES,
            Indexes.ascending("org", "repo", "quarantine"),
            "a repository's quarantine configuration"),
        new Declared(
            FlakyCollections.TEST_CASES,
            Indexes.ascending("status.value", "evaluatedAt"),
            "the sweeper: unhealthy tests not classified for an hour"),
        new Declared(
            FlakyCollections.TEST_CASES,
            Indexes.ascending("pendingStatusEvents.at"),
            new IndexOptions().sparse(true),
            "the sweeper: status events stored and not published"),
        Declared.expiring(
            FlakyCollections.TEST_CASES,
            "lastRunAt",
            retention,
            "a test case with no run for the retention is removed"),
        new Declared(
            FlakyCollections.TEST_RESULTS,
            Indexes.compoundIndex(Indexes.ascending("org", "testId"), Indexes.descending("at")),
            "a test's result history"),
        Declared.expiring(
            FlakyCollections.TEST_RESULTS, "at", retention, "per-run results kept for retention"),
        new Declared(
            FlakyCollections.TEST_RESULTS,
            Indexes.ascending("org", "uploadId"),
            "an upload's results, to finish an upload left half-written"),
        new Declared(
            FlakyCollections.UPLOADS,
            Indexes.ascending("state", "at"),
            "the sweep: uploads still being written long after they began"),
        Declared.expiring(
            FlakyCollections.UPLOADS,
            "at",
            retention,
            "an upload's record (a retried upload is recognised) kept as long as its results"),
        new Declared(
            FlakyCollections.SEEN_NONCES,
            Indexes.ascending("expiresAt"),
            new IndexOptions().expireAfter(0L, java.util.concurrent.TimeUnit.SECONDS),
            "a spent proof nonce dropped once the proof is stale"));
  }
}
