package dev.trainyard.gateway.idempotency;

import dev.trainyard.common.flaky.FlakyTestsHeaders;
import dev.trainyard.common.json.Timestamps;
import dev.trainyard.gateway.auth.RouteGuard;
import dev.trainyard.gateway.auth.SecuredRoutes;
import dev.trainyard.gateway.auth.TokenHash;
import dev.trainyard.gateway.config.GatewayProperties;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.HeldBodies;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Date;
import java.util.HexFormat;
import java.util.Set;
import org.bson.Document;
import org.bson.types.Binary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.data.mongodb.core.FindAndModifyOptions;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.data.mongodb.core.query.Update;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.HandlerFilterFunction;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Honours an {@code Idempotency-Key} header on the mutations (API.md §1 Retries); on a read (a
 * route named {@code get…} or {@code list…}) the header changes nothing and nothing is kept. The
 * first request with a key claims it (per organization, for 24 h) and runs; its answer is kept
 * unless it says "try again" (429, 503, another 5xx), in which case the claim is dropped so that a
 * retry runs again. The same key and body then gets the kept answer (with {@code
 * Idempotent-Replayed: true}) and nothing is applied again; the same key with another body or path
 * gets 422; a retry while the first is still running gets 409. A retry that runs again sends its
 * commands under the same ids as the first ({@link CommandIds}, derived from the key and the body's
 * fingerprint, so a released key reused for another body is never taken for the first one), so the
 * worker applies a command the first attempt did get to the queue only once.
 *
 * <p>What is kept is bounded: an answer that carries a secret shown once ({@link #SECRET_ANSWERS})
 * or is past {@link #MAX_KEPT_BODY} keeps only the fact that it was given, and a repeat gets 409
 * saying so; an organization keeps at most {@link #QUOTA_PER_DAY} keys a day (then 429).
 */
@Component
public class IdempotencyKeys implements HandlerFilterFunction<ServerResponse, ServerResponse> {
  public static final String HEADER = "Idempotency-Key";
  public static final String REPLAYED_HEADER = "Idempotent-Replayed";
  public static final String COLLECTION = "idempotency_keys";
  private static final Logger log = LoggerFactory.getLogger(IdempotencyKeys.class);
  private static final Duration KEPT = Duration.ofHours(24);

  /** How long a claim may run before a retry may take it over (the first attempt died). */
  private static final Duration LEASE = Duration.ofSeconds(60);

  private static final int MAX_KEY = 255;

  /** Routes whose answer holds a live token or signing secret, which is shown once. */
  static final Set<String> SECRET_ANSWERS =
      Set.of(
          "/admin/v1/createApiToken", "/v1/webhooks/createEndpoint", "/v1/webhooks/rotateSecret");

  /** The largest answer body kept (the mutations' answers are a few hundred bytes). */
  static final int MAX_KEPT_BODY = 64 * 1024;

  /** Keys an organization (or the admin) may claim per UTC day. */
  static final long QUOTA_PER_DAY = 100_000;

  public static final String QUOTA_COLLECTION = "idempotency_quota";
  private static final String SCOPE = IdempotencyKeys.class.getName() + ".scope";
  private final ReactiveMongoTemplate mongo;
  private final InstantSource clock;
  private final HeldBodies bodies;
  private final long maxBodyBytes;

  /**
   * @param maxBodyBytes the limit of every route but the upload ({@code TRAINYARD_MAX_BODY_BYTES}),
   *     enforced here as the body streams in, since a keyed body is held before the route reads it
   */
  public IdempotencyKeys(
      ReactiveMongoTemplate mongo,
      InstantSource clock,
      HeldBodies bodies,
      GatewayProperties props) {
    this.mongo = mongo;
    this.clock = clock;
    this.bodies = bodies;
    this.maxBodyBytes = props.maxBodyBytes();
  }

  @Override
  public Mono<ServerResponse> filter(ServerRequest request, HandlerFunction<ServerResponse> next) {
    String key = request.headers().firstHeader(HEADER);
    String path = request.requestPath().value();
    if (key == null || SecuredRoutes.isRead(path)) {
      return next.handle(request);
    }
    if (key.isEmpty() || key.length() > MAX_KEY || !key.chars().allMatch(c -> c > 32 && c < 127)) {
      return Mono.error(
          ApiException.badRequest(
              HEADER + " must be 1 to " + MAX_KEY + " visible ASCII characters"));
    }
    String scope = request.exchange().getAttributeOrDefault(RouteGuard.ORG_ATTRIBUTE, "(admin)");
    String id = TokenHash.sha256(scope + "\u0000" + key);
    boolean upload = path.equals(FlakyTestsHeaders.UPLOAD_PATH);
    long limit = upload ? FlakyTestsHeaders.MAX_UPLOAD_BYTES : maxBodyBytes;
    MessageDigest digest = sha256();
    digest.update((request.method().name() + " " + path + "\n").getBytes(StandardCharsets.UTF_8));
    return bodies.hold(
        request.bodyToFlux(DataBuffer.class),
        limit,
        digest::update,
        body ->
            claimAndRun(request, next, id, HexFormat.of().formatHex(digest.digest()), body)
                .contextWrite(ctx -> ctx.put(SCOPE, scope)));
  }

  private Mono<ServerResponse> claimAndRun(
      ServerRequest request,
      HandlerFunction<ServerResponse> next,
      String id,
      String fingerprint,
      byte[] body) {
    String path = request.requestPath().value();
    return claim(id, fingerprint)
        .flatMap(
            claimed -> {
              if (claimed.getString("state").equals("done")) {
                return KeptAnswer.replay(claimed, request.exchange());
              }
              ServerRequest again =
                  ServerRequest.from(request)
                      .body(Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(body)))
                      .build();
              return Mono.defer(() -> next.handle(again))
                  .map(response -> KeptAnswer.recording(response, kept -> keep(id, path, kept)))
                  .onErrorResume(error -> failed(id, path, error))
                  .contextWrite(CommandIds.seeded(id + ":" + fingerprint));
            });
  }

  /**
   * Claims the key for this request, or finds what it holds: the kept answer of the same request
   * (state {@code done}), or an error (another body: 422; still running: 409).
   */
  private Mono<Document> claim(String id, String fingerprint) {
    Document fresh =
        new Document("_id", id)
            .append("fingerprint", fingerprint)
            .append("state", "pending")
            .append("leaseUntil", Timestamps.format(clock.instant().plus(LEASE)))
            .append("expiresAt", Date.from(clock.instant().plus(KEPT)));
    return Mono.deferContextual(ctx -> withinQuota(ctx.get(SCOPE)))
        .then(mongo.insert(fresh, COLLECTION))
        .onErrorResume(
            DuplicateKeyException.class,
            e ->
                mongo
                    .findById(id, Document.class, COLLECTION)
                    .switchIfEmpty(Mono.defer(() -> mongo.insert(fresh, COLLECTION)))
                    .flatMap(found -> existing(found, fresh)));
  }

  private Mono<Document> existing(Document found, Document fresh) {
    boolean expired = found.getDate("expiresAt").toInstant().isBefore(clock.instant());
    boolean abandoned =
        found.getString("state").equals("pending")
            && Timestamps.parse(found.getString("leaseUntil")).isBefore(clock.instant());
    if (expired || abandoned) {
      // take it over only if nobody else did meanwhile
      Query same =
          Query.query(
              Criteria.where("_id")
                  .is(found.get("_id"))
                  .and("leaseUntil")
                  .is(found.get("leaseUntil"))
                  .and("expiresAt")
                  .is(found.get("expiresAt")));
      return mongo
          .findAndReplace(same, fresh, COLLECTION)
          .map(replaced -> fresh)
          .switchIfEmpty(Mono.error(ApiException.conflict(inProgress())));
    }
    if (!found.getString("fingerprint").equals(fresh.getString("fingerprint"))) {
      return Mono.error(
          new ApiException(
              HttpStatus.UNPROCESSABLE_CONTENT,
              HEADER + " was used before with another request; use a new key for this one"));
    }
    if (found.getString("state").equals("pending")) {
      return Mono.error(ApiException.conflict(inProgress()));
    }
    return Mono.just(found);
  }

  private static String inProgress() {
    return "a request with this " + HEADER + " is still being answered; retry in a moment";
  }

  /**
   * Counts a new key against its organization's day; past {@link #QUOTA_PER_DAY}, 429. A claim that
   * finds its key taken counted too: a retry is rare, and the count stays an upper bound.
   */
  private Mono<Void> withinQuota(String scope) {
    String day = clock.instant().toString().substring(0, 10);
    return mongo
        .findAndModify(
            Query.query(Criteria.where("_id").is(scope + "\u0000" + day)),
            new Update()
                .inc("claimed", 1)
                .setOnInsert("expiresAt", Date.from(clock.instant().plus(KEPT.multipliedBy(2)))),
            FindAndModifyOptions.options().upsert(true).returnNew(true),
            Document.class,
            QUOTA_COLLECTION)
        .flatMap(
            counted ->
                ((Number) counted.get("claimed")).longValue() > QUOTA_PER_DAY
                    ? Mono.error(
                        ApiException.tooManyRequests(
                            "the organization has used its "
                                + QUOTA_PER_DAY
                                + " idempotency keys of today (UTC); send without "
                                + HEADER
                                + " or retry tomorrow",
                            3600))
                    : Mono.empty());
  }

  /**
   * Keeps a final answer; an answer that says "try again" frees the key instead. A secret or an
   * oversized body is not kept: the key remembers only that it was answered, and why it says no
   * more.
   */
  private Mono<Void> keep(String id, String path, KeptAnswer answer) {
    if (!answer.isFinal()) {
      return release(id);
    }
    Update done = new Update().set("state", "done").set("status", answer.status());
    if (answer.status() < 400 && SECRET_ANSWERS.contains(path)) {
      done.set(
          "withheld",
          "the first request with this "
              + HEADER
              + " was answered with a secret, which is shown once and never kept: it took"
              + " effect; list what it made, or rotate or create another, to get a new one");
    } else if (answer.body().length > MAX_KEPT_BODY) {
      done.set(
          "withheld",
          "the first request with this "
              + HEADER
              + " took effect; its answer was too large to keep");
    } else {
      done.set("contentType", answer.contentType()).set("body", new Binary(answer.body()));
    }
    return mongo
        .updateFirst(
            Query.query(Criteria.where("_id").is(id).and("state").is("pending")), done, COLLECTION)
        .then();
  }

  private Mono<ServerResponse> failed(String id, String path, Throwable error) {
    KeptAnswer answer = KeptAnswer.of(error);
    Mono<Void> record = answer == null ? release(id) : keep(id, path, answer);
    return record.onErrorResume(e -> Mono.empty()).then(Mono.error(error));
  }

  private Mono<Void> release(String id) {
    return mongo
        .remove(Query.query(Criteria.where("_id").is(id).and("state").is("pending")), COLLECTION)
        .then();
  }

  /** The fingerprint of the request as far as a retry must repeat it: method, path and body. */
  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
