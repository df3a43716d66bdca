package dev.trainyard.flaky.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.model.Filters;
import dev.trainyard.flaky.store.FlakyCollections;
import dev.trainyard.flaky.store.WireStore;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A nonce is spent until its proof goes stale; the embedded store's records are pruned here. */
class SeenNoncesTest {
  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
  private static final Instant STALE = NOW.plus(Duration.ofMinutes(5));

  private final WireStore store = new WireStore();
  private final AtomicReference<Instant> now = new AtomicReference<>(NOW);
  private final SeenNonces nonces = new SeenNonces(store.mongo(), now::get);

  @AfterEach
  void closeStore() {
    store.close();
  }

  @Test
  void aNonceIsSpentUntilItsProofGoesStaleAndThenCountsAsAbsent() {
    assertThat(nonces.firstUse("n1", STALE)).isTrue();
    assertThat(nonces.firstUse("n1", STALE)).isFalse();

    now.set(STALE); // the proof is still fresh at its last instant
    assertThat(nonces.firstUse("n1", STALE)).isFalse();

    now.set(STALE.plusMillis(1)); // the store may still hold the record: it no longer counts
    assertThat(nonces.firstUse("n1", STALE.plus(Duration.ofMinutes(10)))).isTrue();
    assertThat(nonces.firstUse("n1", STALE)).isFalse();
  }

  @Test
  void staleRecordsArePrunedAtMostOnceAMinute() {
    nonces.firstUse("old", NOW.plusSeconds(1));
    now.set(NOW.plusSeconds(30));
    nonces.firstUse("new", STALE.plusSeconds(30));
    assertThat(stored("old")).as("pruned at most once a minute").isOne();

    now.set(NOW.plusSeconds(61));
    nonces.firstUse("newer", STALE.plusSeconds(61));

    assertThat(stored("old")).isZero();
    assertThat(stored("new") + stored("newer")).isEqualTo(2);
  }

  private long stored(String nonce) {
    return store
        .mongo()
        .getCollection(FlakyCollections.SEEN_NONCES)
        .countDocuments(Filters.eq("_id", nonce));
  }
}
