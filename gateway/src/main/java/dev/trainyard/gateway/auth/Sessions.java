package dev.trainyard.gateway.auth;

import dev.trainyard.gateway.http.SecurityHeaders;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Date;
import org.bson.Document;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.http.HttpCookie;
import org.springframework.http.ResponseCookie;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;

/**
 * Dashboard sessions (API.md §8), kept in the store so every gateway replica sees the same ones (no
 * sticky sessions): a sign-out deletes the document and ends the session everywhere at once. The
 * cookie holds a random id; the store holds only its hash, the hash of the token signed in with
 * (checked on every request, so a revoked token ends its sessions), the CSRF token and the expiry.
 * The token itself is never stored.
 */
@Component
public class Sessions {
  public static final String COLLECTION = "ui_sessions";

  /** The cookie's name over plain HTTP (a laptop, a test). */
  public static final String COOKIE = "trainyard_session";

  /**
   * Its name over TLS: a browser keeps a {@code __Host-} cookie only when it is {@code Secure}, for
   * {@code /} and this host alone, so neither a subdomain nor a plain-HTTP page can plant or shadow
   * it.
   */
  public static final String TLS_COOKIE = "__Host-" + COOKIE;

  public static final Duration LIFETIME = Duration.ofHours(12);

  private static final SecureRandom RANDOM = new SecureRandom();
  private final ReactiveMongoTemplate mongo;
  private final InstantSource clock;

  /**
   * One signed-in browser. {@code org} is null for an admin who has not chosen an organization to
   * look at yet; {@code tokenHash} is the hash of the API token (or admin token) it signed in with.
   */
  public record Session(
      String idHash, String org, boolean admin, String tokenHash, String csrf, Instant expiresAt) {}

  /** A new session and the cookie value that names it (shown to the browser only). */
  public record Created(String cookieValue, Session session) {}

  public Sessions(ReactiveMongoTemplate mongo, InstantSource clock) {
    this.mongo = mongo;
    this.clock = clock;
  }

  public Mono<Created> create(String org, boolean admin, String tokenHash) {
    return insert(org, admin, tokenHash, clock.instant().plus(LIFETIME));
  }

  private Mono<Created> insert(String org, boolean admin, String tokenHash, Instant expires) {
    String cookie = random();
    Session session =
        new Session(TokenHash.sha256(cookie), org, admin, tokenHash, random(), expires);
    Document doc =
        new Document("_id", session.idHash())
            .append("org", org)
            .append("admin", admin)
            .append("tokenHash", tokenHash)
            .append("csrf", session.csrf())
            .append("expiresAt", Date.from(expires));
    return mongo.insert(doc, COLLECTION).thenReturn(new Created(cookie, session));
  }

  /** The live session a cookie names; empty when unknown or expired. */
  public Mono<Session> find(String cookieValue) {
    if (cookieValue == null || cookieValue.isEmpty() || cookieValue.length() > 100) {
      return Mono.empty();
    }
    return byHash(TokenHash.sha256(cookieValue));
  }

  /** {@code session} as the store has it now; empty once signed out or expired. */
  public Mono<Session> again(Session session) {
    return byHash(session.idHash());
  }

  private Mono<Session> byHash(String hash) {
    return mongo
        .findById(hash, Document.class, COLLECTION)
        .map(
            doc ->
                new Session(
                    hash,
                    doc.getString("org"),
                    Boolean.TRUE.equals(doc.getBoolean("admin")),
                    doc.getString("tokenHash"),
                    doc.getString("csrf"),
                    doc.getDate("expiresAt").toInstant()))
        .filter(s -> s.expiresAt().isAfter(clock.instant()));
  }

  /**
   * An admin's session, switched to show {@code org}, under a new id and CSRF token (whoever knew
   * the old cookie learns nothing of the new one); it ends when the old one would have, and the old
   * one ends now.
   */
  public Mono<Created> switchTo(Session session, String org) {
    return insert(org, session.admin(), session.tokenHash(), session.expiresAt())
        .flatMap(created -> delete(session).thenReturn(created));
  }

  public Mono<Void> delete(Session session) {
    return mongo.remove(Query.query(Criteria.where("_id").is(session.idHash())), COLLECTION).then();
  }

  private static String random() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /**
   * The session id the browser sent under the name of its transport: over TLS only the {@code
   * __Host-} cookie counts, so a plain-named cookie a sibling subdomain or a plain-HTTP page
   * planted is never taken for a session. Null when none.
   */
  public static String cookieValue(ServerRequest request) {
    boolean tls = SecurityHeaders.overTls(request.exchange().getRequest());
    HttpCookie cookie = request.cookies().getFirst(tls ? TLS_COOKIE : COOKIE);
    return cookie == null ? null : cookie.getValue();
  }

  /**
   * The session cookie carrying {@code value} (empty: one that ends the browser's session): only
   * for HTTP, {@code Secure} and named {@code __Host-…} when the browser came over TLS (or a proxy
   * says so). {@code SameSite=Lax}: a link followed from another site (a check run's on github.com)
   * arrives signed in, while a form posted from another site carries no cookie; every POST needs
   * the session's CSRF token and a same-site {@code Origin} besides, and no GET changes anything.
   */
  public static ResponseCookie cookie(ServerRequest request, String value) {
    return cookie(request, value, value.isEmpty() ? Duration.ZERO : LIFETIME);
  }

  /** {@link #cookie(ServerRequest, String)} kept by the browser for {@code maxAge}. */
  public static ResponseCookie cookie(ServerRequest request, String value, Duration maxAge) {
    boolean tls = SecurityHeaders.overTls(request.exchange().getRequest());
    return ResponseCookie.from(tls ? TLS_COOKIE : COOKIE, value)
        .httpOnly(true)
        .sameSite("Lax")
        .secure(tls)
        .path("/")
        .maxAge(maxAge)
        .build();
  }
}
