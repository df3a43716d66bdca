package dev.trainyard.gateway.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.bson.Document;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.data.domain.Sort;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Organizations and their API tokens in MongoDB. Token look-ups are cached for a few seconds: a
 * revoked token stops working at once on the instance that revoked it and within {@link #CACHE_TTL}
 * everywhere else.
 */
@Component
public class Organizations {
  public static final Duration CACHE_TTL = Duration.ofSeconds(5);
  static final String ORGANIZATIONS = "organizations";
  static final String TOKENS = "api_tokens";

  private final ReactiveMongoTemplate mongo;
  private final Clock clock;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();

  /**
   * A live API token: its organization, its role (a token stored before roles existed is {@code
   * admin}), and how the audit log names it ({@code id} from its hash, {@code name} as created).
   */
  public record Token(String org, Role role, String id, String name) {
    public Caller caller() {
      return new Caller(org, role, id, name);
    }
  }

  private record Cached(Token token, Instant until) {}

  public Organizations(ReactiveMongoTemplate mongo) {
    this.mongo = mongo;
    this.clock = Clock.systemUTC();
  }

  /** The organization of a token, empty when the token is unknown or revoked. */
  public Mono<String> organizationOf(String token) {
    return tokenOf(token).map(Token::org);
  }

  /** The live token {@code token}; empty when unknown or revoked. */
  public Mono<Token> tokenOf(String token) {
    return tokenOfHash(TokenHash.sha256(token));
  }

  /** The organization of the token with this hash (a dashboard session keeps only the hash). */
  public Mono<String> organizationOfHash(String hash) {
    return tokenOfHash(hash).map(Token::org);
  }

  /** The live token with this hash; empty when unknown or revoked. */
  public Mono<Token> tokenOfHash(String hash) {
    Cached cached = cache.get(hash);
    if (cached != null && cached.until().isAfter(clock.instant())) {
      return Mono.just(cached.token());
    }
    return mongo
        .findById(hash, Document.class, TOKENS)
        .filter(doc -> TokenHash.sameHash(hash, doc.getString("_id")))
        // no role: stored before roles existed, admin; a role this version does not know: unusable
        .filter(
            doc -> doc.getString("role") == null || Role.parse(doc.getString("role")).isPresent())
        .map(
            doc -> {
              String id = "token:" + hash.substring(0, 12);
              String name = doc.getString("name");
              return new Token(
                  doc.getString("org"),
                  Role.parse(doc.getString("role")).orElse(Role.ADMIN),
                  id,
                  name == null ? id : name);
            })
        .doOnNext(token -> cache.put(hash, new Cached(token, clock.instant().plus(CACHE_TTL))));
  }

  /** Every organization's slug, in order (the admin's dashboard lists them). */
  public Flux<String> slugs() {
    Query all = new Query().with(Sort.by("_id")).limit(1_000);
    all.fields().include("_id");
    return mongo.find(all, Document.class, ORGANIZATIONS).map(doc -> doc.getString("_id"));
  }

  /** Creates the organization; false when it exists already. */
  public Mono<Boolean> create(String slug) {
    return mongo
        .insert(
            new Document("_id", slug).append("createdAt", clock.instant().toString()),
            ORGANIZATIONS)
        .thenReturn(true)
        .onErrorResume(DuplicateKeyException.class, e -> Mono.just(false));
  }

  public Mono<Boolean> exists(String slug) {
    return mongo.exists(Query.query(Criteria.where("_id").is(slug)), ORGANIZATIONS);
  }

  /** Stores the hash of {@code token} for {@code org} as an {@code admin} token (idempotent). */
  public Mono<Void> addToken(String org, String token) {
    return addToken(org, token, Role.ADMIN, null);
  }

  /**
   * Stores the hash of {@code token} for {@code org} with {@code role} and {@code name} (null: the
   * audit log names it by its id), idempotent.
   */
  public Mono<Void> addToken(String org, String token, Role role, String name) {
    Document doc =
        new Document("_id", TokenHash.sha256(token))
            .append("org", org)
            .append("role", role.wire())
            .append("createdAt", clock.instant().toString());
    if (name != null) {
      doc.append("name", name);
    }
    return mongo.save(doc, TOKENS).then();
  }

  public Mono<Void> revoke(String token) {
    String hash = TokenHash.sha256(token);
    cache.remove(hash);
    return mongo.remove(Query.query(Criteria.where("_id").is(hash)), TOKENS).then();
  }
}
