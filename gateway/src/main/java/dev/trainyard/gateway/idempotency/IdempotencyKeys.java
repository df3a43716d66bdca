package dev.trainyard.gateway.idempotency;

import dev.trainyard.common.flaky.FlakyTestsHeaders;
import dev.trainyard.common.json.Timestamps;
import dev.trainyard.gateway.auth.RouteGuard;
import dev.trainyard.gateway.auth.TokenHash;
import dev.trainyard.gateway.http.ApiException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Date;
import java.util.HexFormat;
import org.bson.Document;
import org.bson.types.Binary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.data.domain.Sort;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.index.Index;
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
 * Honours an {@code Idempotency-Key} header on the mutations (API.md §1 Retries). The first request
 * with a key claims it (per organization, for 24 h) and runs; its answer is kept unless it says
 * "try again" (429, 503, another 5xx), in which case the claim is dropped so that a retry runs
 * again. The same key and body then gets the kept answer (with {@code Idempotent-Replayed: true})
 * and nothing is applied again; the same key with another body or path gets 422; a retry while the
 * first is still running gets 409. A retry that runs again sends its commands under the same ids as
 * the first ({@link CommandIds}), so the worker applies a command the first attempt did get to the
 * queue only once.
 */
@Component
public class IdempotencyKeys implements HandlerFilterFunction<ServerResponse, ServerResponse> {
  public static final String HEADER = "Idempotency-Key";
  public static final String REPLAYED_HEADER = "Idempotent-Replayed";
  static final String COLLECTION = "idempotency_keys";
  private static final Logger log = LoggerFactory.getLogger(IdempotencyKeys.class);
  private static final Duration KEPT = Duration.ofHours(24);

  /** How long a claim may run before a retry may take it over (the first attempt died). */
  private static final Duration LEASE = Duration.ofSeconds(60);

  private static final int MAX_KEY = 255;
  private final ReactiveMongoTemplate mongo;
  private final InstantSource clock;
  private final int maxBodyBytes;

  /** Bodies are read whole, up to the largest a route takes (a flaky-tests upload). */
  public IdempotencyKeys(ReactiveMongoTemplate mongo, InstantSource clock) {
    this.mongo = mongo;
    this.clock = clock;
    this.maxBodyBytes = (int) Math.min(FlakyTestsHeaders.MAX_UPLOAD_BYTES, Integer.MAX_VALUE);
    mongo
        .indexOps(COLLECTION)
        .createIndex(new Index().on("expiresAt", Sort.Direction.ASC).expire(Duration.ZERO))
        .subscribe(
            name -> {},
            e -> log.warn("could not create the expiry index of {}: {}", COLLECTION, e.toString()));
  }

  @Override
  public Mono<ServerResponse> filter(ServerRequest request, HandlerFunction<ServerResponse> next) {
    String key = request.headers().firstHeader(HEADER);
    if (key == null) {
      return next.handle(request);
    }
    if (key.isEmpty() || key.length() > MAX_KEY || !key.chars().allMatch(c -> c > 32 && c < 127)) {
      return Mono.error(
          ApiException.badRequest(
              HEADER + " must be 1 to " + MAX_KEY + " visible ASCII characters"));
    }
    String scope = request.exchange().getAttributeOrDefault(RouteGuard.ORG_ATTRIBUTE, "(admin)");
    String id = TokenHash.sha256(scope + "\u0000" + key);
    return DataBufferUtils.join(request.bodyToFlux(DataBuffer.class), maxBodyBytes)
        .map(
            buffer -> {
              byte[] bytes = new byte[buffer.readableByteCount()];
              buffer.read(bytes);
              DataBufferUtils.release(buffer);
              return bytes;
            })
        .defaultIfEmpty(new byte[0])
        .flatMap(body -> claimAndRun(request, next, id, fingerprint(request, body), body));
  }

  private Mono<ServerResponse> claimAndRun(
      ServerRequest request,
      HandlerFunction<ServerResponse> next,
      String id,
      String fingerprint,
      byte[] body) {
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
                  .map(response -> KeptAnswer.recording(response, kept -> keep(id, kept)))
                  .onErrorResume(error -> failed(id, error))
                  .contextWrite(CommandIds.seeded(id));
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
    return mongo
        .insert(fresh, COLLECTION)
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

  /** Keeps a final answer; an answer that says "try again" frees the key instead. */
  private Mono<Void> keep(String id, KeptAnswer answer) {
    if (!answer.isFinal()) {
      return release(id);
    }
    return mongo
        .updateFirst(
            Query.query(Criteria.where("_id").is(id).and("state").is("pending")),
            new Update()
                .set("state", "done")
                .set("status", answer.status())
                .set("contentType", answer.contentType())
                .set("body", new Binary(answer.body())),
            COLLECTION)
        .then();
  }

  private Mono<ServerResponse> failed(String id, Throwable error) {
    KeptAnswer answer = KeptAnswer.of(error);
    Mono<Void> record = answer == null ? release(id) : keep(id, answer);
    return record.onErrorResume(e -> Mono.empty()).then(Mono.error(error));
  }

  private Mono<Void> release(String id) {
    return mongo
        .remove(Query.query(Criteria.where("_id").is(id).and("state").is("pending")), COLLECTION)
        .then();
  }

  /** The request as far as a retry must repeat it: method, path and body. */
  private static String fingerprint(ServerRequest request, byte[] body) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      digest.update(
          (request.method().name() + " " + request.requestPath().value() + "\n")
              .getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest.digest(body));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
