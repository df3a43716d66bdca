package dev.trainyard.gateway.limits;

import dev.trainyard.common.limits.TokenBucket;
import dev.trainyard.common.telemetry.CappedLabel;
import dev.trainyard.gateway.config.GatewayProperties;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.data.mongodb.core.query.Update;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * {@code TRAINYARD_RATE_LIMIT_PER_ORG} requests a second per organization, bursts to twice that,
 * across every gateway replica (ADR 0011). The bucket lives in the {@code rate_limits} collection
 * and is changed only by a compare-and-set on its version; a replica takes a slice of a tenth of a
 * second's tokens at a time and spends it locally for at most a second, so the store sees about ten
 * writes a second per busy organization and replica, and unspent slices lapse rather than let two
 * replicas together exceed the bucket.
 */
@Component
public class OrgRateLimiter {
  static final String COLLECTION = "rate_limits";
  private static final Logger log = LoggerFactory.getLogger(OrgRateLimiter.class);
  private static final long SLICE_LIFETIME_MILLIS = 1000;
  private static final int MAX_ATTEMPTS = 8;

  private final ReactiveMongoTemplate mongo;
  private final InstantSource clock;
  private final double rate;
  private final double burst;
  private final int slice;
  private final Map<String, Slice> slices = new ConcurrentHashMap<>();

  /** What a request may do: go on, or wait {@code retryAfterSeconds} (at least 1). */
  public record Verdict(boolean allowed, long retryAfterSeconds) {
    static final Verdict ALLOW = new Verdict(true, 0);
  }

  /** Tokens this replica holds for one organization until {@code expiresAtMillis}. */
  private static final class Slice {
    private int remaining;
    private long expiresAtMillis;

    synchronized boolean take(long nowMillis) {
      if (remaining > 0 && nowMillis < expiresAtMillis) {
        remaining--;
        return true;
      }
      return false;
    }

    synchronized void add(int tokens, long expiresAt) {
      remaining = tokens;
      expiresAtMillis = expiresAt;
    }
  }

  /**
   * Organizations named on {@code trainyard.rate.limited}: the first this many to be refused; any
   * later one counts as {@code _other}.
   */
  public static final int ORGS_NAMED = 100;

  private final MeterRegistry meters;
  private final CappedLabel orgs = new CappedLabel(ORGS_NAMED);

  public OrgRateLimiter(
      ReactiveMongoTemplate mongo,
      InstantSource clock,
      GatewayProperties props,
      MeterRegistry meters) {
    this.meters = meters;
    this.mongo = mongo;
    this.clock = clock;
    this.rate = props.rateLimitPerOrg();
    this.burst = 2.0 * rate;
    this.slice = (int) Math.max(1, Math.min(50, rate / 10));
  }

  public boolean enabled() {
    return rate > 0;
  }

  /**
   * Takes one request's token from {@code org}'s bucket; a refusal counts in {@code
   * trainyard.rate.limited} under the organization ({@link #ORGS_NAMED}).
   */
  public Mono<Verdict> acquire(String org) {
    if (!enabled()) {
      return Mono.just(Verdict.ALLOW);
    }
    return attempt(org, slices.computeIfAbsent(org, o -> new Slice()), 1)
        .doOnNext(
            verdict -> {
              if (!verdict.allowed()) {
                meters.counter("trainyard.rate.limited", "org", orgs.of(org)).increment();
              }
            });
  }

  /**
   * Takes one page's token from {@code org}'s dashboard bucket, a second bucket as large as its API
   * bucket: people reading pages never spend what CI's calls need, nor CI theirs.
   */
  public Mono<Verdict> acquireForDashboard(String org) {
    return acquire(org + DASHBOARD);
  }

  /** The suffix of a dashboard bucket's key; no organization slug holds a {@code /}. */
  static final String DASHBOARD = "/dashboard";

  private Mono<Verdict> attempt(String org, Slice local, int attempt) {
    long now = clock.millis();
    if (local.take(now)) {
      return Mono.just(Verdict.ALLOW);
    }
    if (attempt > MAX_ATTEMPTS) {
      // every attempt lost the race to other requests: the bucket is busy, so it is nearly empty
      return Mono.just(new Verdict(false, 1));
    }
    return lease(org, now)
        .flatMap(
            take -> {
              if (take.granted() == 0) {
                return Mono.just(new Verdict(false, take.retryAfterSeconds()));
              }
              local.add(take.granted() - 1, now + SLICE_LIFETIME_MILLIS);
              return Mono.just(Verdict.ALLOW);
            })
        .switchIfEmpty(Mono.defer(() -> attempt(org, local, attempt + 1)))
        .onErrorResume(
            e -> {
              // the store is away: the request will meet the same outage and answer 503 itself;
              // refusing it here would only turn that into a misleading 429
              log.warn("rate limit of {} not checked: {}", org, e.toString());
              return Mono.just(Verdict.ALLOW);
            });
  }

  /** A slice from the shared bucket; empty when another request changed the bucket first. */
  private Mono<TokenBucket.Take> lease(String org, long now) {
    return mongo
        .findById(org, Document.class, COLLECTION)
        .flatMap(doc -> update(org, doc, now))
        .switchIfEmpty(Mono.defer(() -> create(org, now)));
  }

  private Mono<TokenBucket.Take> update(String org, Document doc, long now) {
    long version = doc.get("v", Number.class).longValue();
    TokenBucket bucket =
        new TokenBucket(
            doc.get("tokens", Number.class).doubleValue(), doc.get("at", Number.class).longValue());
    TokenBucket.Take take = bucket.take(now, rate, burst, slice);
    if (take.granted() == 0) {
      return Mono.just(take); // nothing taken: nothing to write
    }
    Query query = Query.query(Criteria.where("_id").is(org).and("v").is(version));
    Update update =
        new Update()
            .set("tokens", take.after().tokens())
            .set("at", take.after().atMillis())
            .set("v", version + 1);
    return mongo
        .updateFirst(query, update, COLLECTION)
        .flatMap(result -> result.getMatchedCount() == 1 ? Mono.just(take) : Mono.empty());
  }

  private Mono<TokenBucket.Take> create(String org, long now) {
    TokenBucket.Take take = TokenBucket.full(burst, now).take(now, rate, burst, slice);
    Document doc =
        new Document("_id", org)
            .append("tokens", take.after().tokens())
            .append("at", take.after().atMillis())
            .append("v", 1L);
    return mongo
        .insert(doc, COLLECTION)
        .thenReturn(take)
        .onErrorResume(DuplicateKeyException.class, e -> Mono.empty());
  }
}
