package dev.trainyard.gateway.scm.github;

import dev.trainyard.common.json.Timestamps;
import dev.trainyard.common.view.Collections;
import dev.trainyard.gateway.config.GatewayProperties;
import dev.trainyard.gateway.config.PeriodicSweep;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.data.domain.Sort;
import org.springframework.data.mongodb.core.FindAndModifyOptions;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.data.mongodb.core.query.Update;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * GitHub's deliveries, stored before they are answered and applied after (at least once): GitHub
 * gives a delivery 10 seconds and never retries one it lost, while applying it may wait on GitHub
 * itself (who may comment a command, a rate limit) or on the queues. A delivery is one document of
 * {@code github_deliveries}, keyed by {@code X-GitHub-Delivery} (a redelivered copy stores
 * nothing): {@code pending} until applied, claimed for {@link #LEASE} by the replica applying it,
 * and retried with a growing wait when applying fails. It is applied right after it is stored;
 * every gateway replica also sweeps for pending deliveries whose time has come, so one whose
 * replica stopped, or whose store write was slow, is applied by another.
 */
@Component
public class GithubInbox extends PeriodicSweep {
  private static final Logger log = LoggerFactory.getLogger(GithubInbox.class);

  /** How long a replica holds a delivery it applies before another may take it over. */
  static final Duration LEASE = Duration.ofSeconds(60);

  private static final Duration MAX_RETRY = Duration.ofMinutes(10);

  /** How long an applied delivery's id is kept, so GitHub's redelivery of it stores nothing. */
  static final Duration KEPT = Duration.ofDays(7);

  private static final int SWEEP_BATCH = 50;
  private static final String PENDING = "pending";
  private static final String APPLIED = "applied";

  private final ReactiveMongoTemplate mongo;
  private final GithubDeliveryApplier applier;
  private final InstantSource clock;
  private final String host;
  private final Long ownApp;

  public GithubInbox(
      ReactiveMongoTemplate mongo,
      GithubDeliveryApplier applier,
      InstantSource clock,
      GatewayProperties props,
      @Value("${trainyard.github.inbox-sweep-interval:2s}") Duration sweepInterval) {
    super(sweepInterval);
    this.mongo = mongo;
    this.applier = applier;
    this.clock = clock;
    this.host = props.github().host();
    String appId = props.github().appId();
    this.ownApp = appId != null && appId.matches("\\d{1,18}") ? Long.valueOf(appId) : null;
  }

  /**
   * Stores delivery {@code delivery} ({@code payload} read from {@code body}) unless it is stored
   * already — GitHub's redelivery, two copies at once, or the same signed body under another {@code
   * X-GitHub-Delivery}, a header the signature does not cover — or asks nothing of trainyard (kept
   * nowhere). The caller answers GitHub once this completes. Applying it starts then, not awaited.
   * Every stored delivery expires {@link #KEPT} after it was last touched.
   */
  public Mono<Void> store(String delivery, String event, byte[] body, JsonNode payload) {
    if (GithubEvents.read(event, payload, host, ownApp) instanceof GithubEvents.Routed.Ignored i) {
      log.debug("GitHub delivery {} asks nothing: {}", delivery, i.why());
      return Mono.empty();
    }
    Instant at = clock.instant();
    String now = Timestamps.format(at);
    Document doc =
        new Document("_id", delivery)
            .append("event", event)
            .append("digest", digest(event, body))
            .append("body", new String(body, StandardCharsets.UTF_8))
            .append("state", PENDING)
            .append("attempts", 0)
            .append("retryAt", now)
            .append("at", now)
            .append("expiresAt", java.util.Date.from(at.plus(KEPT)));
    if (event.equals("pull_request") && payload.path("action").asString("").equals("synchronize")) {
      doc.append(
          "pushed",
          pushKey(payload.path("repository").path("id").asLong(), payload.path("number").asLong()));
    }
    return mongo
        .insert(doc, Collections.GITHUB_DELIVERIES)
        .doOnSuccess(stored -> process(delivery).subscribe())
        .onErrorResume(DuplicateKeyException.class, e -> Mono.empty())
        .then();
  }

  /** What marks a delivery of a push to PR {@code number} of repository {@code repositoryId}. */
  private static String pushKey(long repositoryId, long number) {
    return repositoryId + "#" + number;
  }

  /**
   * Whether a push to PR {@code number} of repository {@code repositoryId} was delivered after
   * {@code at}: a comment command written before it did not see that head.
   */
  Mono<Boolean> pushedAfter(long repositoryId, long number, String at) {
    Query later =
        Query.query(Criteria.where("pushed").is(pushKey(repositoryId, number)).and("at").gt(at));
    return mongo.exists(later, Collections.GITHUB_DELIVERIES);
  }

  /** The SHA-256 of an event and its signed body, in hex. */
  static String digest(String event, byte[] body) {
    try {
      java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
      sha.update(event.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) '\n');
      return java.util.HexFormat.of().formatHex(sha.digest(body));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Applies delivery {@code id} if it is pending, due, and no other replica holds it. */
  Mono<Void> process(String id) {
    Instant now = clock.instant();
    Query due =
        Query.query(
            Criteria.where("_id")
                .is(id)
                .and("state")
                .is(PENDING)
                .and("retryAt")
                .lte(Timestamps.format(now)));
    Update claim =
        new Update().set("retryAt", Timestamps.format(now.plus(LEASE))).inc("attempts", 1);
    return mongo
        .findAndModify(
            due,
            claim,
            FindAndModifyOptions.options().returnNew(true),
            Document.class,
            Collections.GITHUB_DELIVERIES)
        .flatMap(this::apply)
        .onErrorResume(
            e -> {
              log.warn(
                  "could not claim GitHub delivery {}; the sweep retries: {}", id, e.toString());
              return Mono.empty();
            });
  }

  private Mono<Void> apply(Document claimed) {
    String id = claimed.getString("_id");
    int attempts = claimed.getInteger("attempts", 1);
    JsonNode payload =
        GithubWebhookHandler.payload(claimed.getString("body").getBytes(StandardCharsets.UTF_8));
    GithubEvents.Routed routed =
        GithubEvents.read(claimed.getString("event"), payload, host, ownApp);
    String since = writtenBy(claimed.getString("at"), payload);
    return applier
        .apply(routed, id, (repository, number) -> pushedAfter(repository, number, since))
        .then(
            mark(
                id,
                new Update()
                    .set("state", APPLIED)
                    .set("expiresAt", java.util.Date.from(clock.instant().plus(KEPT)))
                    .unset("body")))
        .onErrorResume(
            e -> {
              Duration wait = retryAfter(attempts);
              log.warn(
                  "GitHub delivery {} could not be applied (attempt {}); again in {} s: {}",
                  id,
                  attempts,
                  wait.toSeconds(),
                  e.toString());
              return mark(
                  id, new Update().set("retryAt", Timestamps.format(clock.instant().plus(wait))));
            });
  }

  /**
   * Since when a push is one the delivery's writer did not see: when the comment was made, as
   * GitHub says ({@code comment.created_at}; a comment redelivered hours later was still written
   * then), or when the delivery arrived, whichever is earlier.
   */
  static String writtenBy(String receivedAt, JsonNode payload) {
    String written = payload.path("comment").path("created_at").asString("");
    try {
      Instant at = Instant.parse(written);
      return at.isBefore(Timestamps.parse(receivedAt)) ? Timestamps.format(at) : receivedAt;
    } catch (java.time.format.DateTimeParseException | IllegalArgumentException e) {
      return receivedAt;
    }
  }

  /** 2 s, 4 s, 8 s … after each failed attempt, up to ten minutes. */
  static Duration retryAfter(int attempts) {
    Duration wait = Duration.ofSeconds(2);
    for (int i = 1; i < attempts && wait.compareTo(MAX_RETRY) < 0; i++) {
      wait = wait.multipliedBy(2);
    }
    return wait.compareTo(MAX_RETRY) < 0 ? wait : MAX_RETRY;
  }

  private Mono<Void> mark(String id, Update update) {
    return mongo
        .updateFirst(
            Query.query(Criteria.where("_id").is(id)), update, Collections.GITHUB_DELIVERIES)
        .then();
  }

  /** The pending deliveries whose time has come, oldest first, a batch at a time. */
  @Override
  protected Flux<Void> sweepOnce() {
    Query due =
        Query.query(
                Criteria.where("state")
                    .is(PENDING)
                    .and("retryAt")
                    .lte(Timestamps.format(clock.instant())))
            .with(Sort.by("retryAt"))
            .limit(SWEEP_BATCH);
    due.fields().include("_id");
    return mongo
        .find(due, Document.class, Collections.GITHUB_DELIVERIES)
        .concatMap(doc -> process(doc.getString("_id")))
        .onErrorResume(
            e -> {
              log.warn(
                  "could not sweep GitHub's deliveries; the next sweep retries: {}", e.toString());
              return Flux.empty();
            });
  }
}
