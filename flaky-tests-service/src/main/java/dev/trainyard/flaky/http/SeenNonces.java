package dev.trainyard.flaky.http;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import dev.trainyard.flaky.store.FlakyCollections;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Date;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * {@code flaky_seen_nonces}: the nonce of every accepted gateway proof ({@code _id}) and when its
 * proof stops being fresh ({@code expiresAt}). It is in the store, not in memory, so a proof is
 * spent on every replica at once. A record is needed only until {@code expiresAt} — after that the
 * time check refuses the proof anyway — so an expired record counts as absent, and since the
 * embedded store does not run MongoDB's TTL index, expired records are also deleted here, at most
 * once a minute per replica.
 */
public class SeenNonces {
  private static final Duration PRUNE_EVERY = Duration.ofMinutes(1);
  private final MongoTemplate mongo;
  private final InstantSource clock;
  private final AtomicReference<Instant> nextPrune = new AtomicReference<>(Instant.MIN);

  public SeenNonces(MongoTemplate mongo, InstantSource clock) {
    this.mongo = mongo;
    this.clock = clock;
  }

  /**
   * Records {@code nonce} until {@code expiresAt}; false when a record of it is still current (the
   * proof is replayed). One conditional upsert, so two replicas given the same proof at the same
   * moment cannot both accept it: the second insert of the {@code _id} fails.
   */
  public boolean firstUse(String nonce, Instant expiresAt) {
    Date now = Date.from(clock.instant());
    pruneIfDue(now.toInstant());
    try {
      mongo
          .getCollection(FlakyCollections.SEEN_NONCES)
          .updateOne(
              Filters.and(Filters.eq("_id", nonce), Filters.lt("expiresAt", now)),
              Updates.set("expiresAt", Date.from(expiresAt)),
              new UpdateOptions().upsert(true));
      return true;
    } catch (MongoWriteException e) {
      if (e.getError().getCategory() == ErrorCategory.DUPLICATE_KEY) {
        return false;
      }
      throw e;
    }
  }

  private void pruneIfDue(Instant now) {
    Instant due = nextPrune.get();
    if (now.isBefore(due) || !nextPrune.compareAndSet(due, now.plus(PRUNE_EVERY))) {
      return;
    }
    mongo
        .getCollection(FlakyCollections.SEEN_NONCES)
        .deleteMany(Filters.lt("expiresAt", Date.from(now)));
  }
}
