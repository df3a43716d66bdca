package dev.trainyard.gateway.auth;

import dev.trainyard.gateway.config.GatewayProperties;
import dev.trainyard.gateway.http.SecurityHeaders;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.data.mongodb.core.query.Update;
import org.springframework.http.HttpCookie;
import org.springframework.http.ResponseCookie;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;

/**
 * Dashboard sessions (API.md §8), kept in the store so every gateway replica sees the same ones (no
 * sticky sessions): a sign-out deletes the document and ends the session everywhere at once. The
 * cookie holds a random id; the store holds only its hash, the hash of the token signed in with
 * (checked on every request, so a revoked token ends its sessions) or the person an identity
 * provider vouched for, the CSRF token and two expiries: the absolute one ({@code
 * TRAINYARD_DASHBOARD_SESSION_LIFETIME}) and the idle one ({@code
 * TRAINYARD_DASHBOARD_SESSION_IDLE_TIMEOUT}), which each request moves on (at most once a minute).
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
  public static final String TLS_COOKIE = hostOnly(COOKIE);

  /** The lifetime every session had before it was configurable. */
  private static final Duration LEGACY = Duration.ofHours(12);

  /** How far an idle session's end may lag behind its last request before it is moved on. */
  static final Duration TOUCH_EVERY = Duration.ofMinutes(1);

  private static final SecureRandom RANDOM = new SecureRandom();
  private final ReactiveMongoTemplate mongo;
  private final InstantSource clock;
  private final Duration lifetime;
  private final Duration idleTimeout;

  /**
   * One signed-in browser. {@code org} is null for an admin who has not chosen an organization to
   * look at yet; {@code tokenHash} is the hash of the API token (or admin token) it signed in with,
   * null for a {@code person} signed in through an identity provider. It ends at {@code expiresAt}
   * or, when no request came for the idle timeout, at {@code idleUntil}.
   */
  public record Session(
      String idHash,
      String org,
      boolean admin,
      String tokenHash,
      String csrf,
      Instant expiresAt,
      Person person,
      Instant idleUntil,
      Instant signedInAt) {

    /** This session with {@code person} in place of the one it was stored with. */
    public Session with(Person now) {
      return new Session(
          idHash, org, admin, tokenHash, csrf, expiresAt, now, idleUntil, signedInAt);
    }

    /** The organizations this session may switch to: an admin's are all; a person's, theirs. */
    public boolean switches() {
      return admin || (person != null && person.memberships().size() > 1);
    }
  }

  /** A new session and the cookie value that names it (shown to the browser only). */
  public record Created(String cookieValue, Session session) {}

  public Sessions(ReactiveMongoTemplate mongo, InstantSource clock, GatewayProperties props) {
    this.mongo = mongo;
    this.clock = clock;
    this.lifetime = props.dashboard().sessionLifetime();
    this.idleTimeout = props.dashboard().sessionIdleTimeout();
  }

  /** A session signed in with an API token ({@code admin}: the admin token). */
  public Mono<Created> create(String org, boolean admin, String tokenHash) {
    Instant now = clock.instant();
    return insert(org, admin, tokenHash, null, now, now.plus(lifetime));
  }

  /** A session of a person an identity provider vouched for, showing their first organization. */
  public Mono<Created> create(Person person) {
    Instant now = clock.instant();
    return insert(person.firstOrganization(), false, null, person, now, now.plus(lifetime));
  }

  private Mono<Created> insert(
      String org,
      boolean admin,
      String tokenHash,
      Person person,
      Instant signedInAt,
      Instant expires) {
    String cookie = random();
    Instant idle = min(expires, clock.instant().plus(idleTimeout));
    Session session =
        new Session(
            TokenHash.sha256(cookie),
            org,
            admin,
            tokenHash,
            random(),
            expires,
            person,
            idle,
            signedInAt);
    Document doc =
        new Document("_id", session.idHash())
            .append("org", org)
            .append("admin", admin)
            .append("tokenHash", tokenHash)
            .append("csrf", session.csrf())
            .append("expiresAt", Date.from(expires))
            .append("idleUntil", Date.from(idle))
            .append("signedInAt", Date.from(signedInAt));
    if (person != null) {
      doc.append(
          "person",
          new Document("id", person.id())
              .append("name", person.name())
              .append("provider", person.provider())
              .append("keys", person.keys()));
    }
    return mongo.insert(doc, COLLECTION).thenReturn(new Created(cookie, session));
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }

  /**
   * Moves an idle session's end on from a request that just used it; a write at most once a {@link
   * #TOUCH_EVERY}, not on every page.
   */
  public Mono<Void> touch(Session session) {
    Instant now = clock.instant();
    Instant idle = min(session.expiresAt(), now.plus(idleTimeout));
    if (Duration.between(session.idleUntil(), idle).compareTo(TOUCH_EVERY) < 0) {
      return Mono.empty();
    }
    return mongo
        .updateFirst(
            Query.query(Criteria.where("_id").is(session.idHash())),
            new Update().set("idleUntil", Date.from(idle)),
            COLLECTION)
        .then();
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
        .map(doc -> session(hash, doc))
        .filter(this::live);
  }

  /**
   * Neither expired, nor idle too long, nor older than the lifetime configured now (a lifetime
   * shortened after sign-in ends the sessions it no longer allows).
   */
  private boolean live(Session s) {
    Instant now = clock.instant();
    return s.expiresAt().isAfter(now)
        && s.idleUntil().isAfter(now)
        && s.signedInAt().plus(lifetime).isAfter(now);
  }

  private static Session session(String hash, Document doc) {
    Date expires = doc.getDate("expiresAt");
    // sessions stored before the idle timeout existed end at their absolute expiry
    Date idle = doc.get("idleUntil") instanceof Date d ? d : expires;
    Date signedIn =
        doc.get("signedInAt") instanceof Date d ? d : Date.from(expires.toInstant().minus(LEGACY));
    return new Session(
        hash,
        doc.getString("org"),
        Boolean.TRUE.equals(doc.getBoolean("admin")),
        doc.getString("tokenHash"),
        doc.getString("csrf"),
        expires.toInstant(),
        person(doc.get("person", Document.class)),
        idle.toInstant(),
        signedIn.toInstant());
  }

  /** The person a session names, without memberships: the route guard reads them again. */
  private static Person person(Document doc) {
    if (doc == null) {
      return null;
    }
    return new Person(
        doc.getString("id"),
        doc.getString("name"),
        doc.getString("provider"),
        doc.getList("keys", String.class, List.of()),
        Map.of());
  }

  /**
   * A session switched to show {@code org} (an admin's, or a person's with more than one
   * organization), under a new id and CSRF token (whoever knew the old cookie learns nothing of the
   * new one); it ends when the old one would have, and the old one ends now.
   */
  public Mono<Created> switchTo(Session session, String org) {
    return insert(
            org,
            session.admin(),
            session.tokenHash(),
            session.person(),
            session.signedInAt(),
            session.expiresAt())
        .flatMap(created -> delete(session).thenReturn(created));
  }

  /**
   * Ends the session the browser still names, if any: a browser signing in again starts afresh, so
   * a session someone planted or left behind in it does not live on beside the new one.
   */
  public Mono<Void> endEarlier(ServerRequest request) {
    return find(cookieValue(request)).flatMap(this::delete);
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
    return cookieValue(request, COOKIE);
  }

  /** The value of this host's cookie {@code name} (see {@link #hostCookie}); null when none. */
  public static String cookieValue(ServerRequest request, String name) {
    boolean tls = SecurityHeaders.overTls(request.exchange().getRequest());
    HttpCookie cookie = request.cookies().getFirst(tls ? hostOnly(name) : name);
    return cookie == null ? null : cookie.getValue();
  }

  /**
   * The session cookie naming {@code created}, kept by the browser until it expires: only for HTTP,
   * {@code Secure} and named {@code __Host-…} when the browser came over TLS (or a proxy says so).
   * {@code SameSite=Lax}: a link followed from another site (a check run's on github.com) arrives
   * signed in, while a form posted from another site carries no cookie; every POST needs the
   * session's CSRF token and a same-site {@code Origin} besides, and no GET changes anything.
   */
  public ResponseCookie cookie(ServerRequest request, Created created) {
    return cookie(
        request,
        created.cookieValue(),
        Duration.between(clock.instant(), created.session().expiresAt()));
  }

  /** The name a cookie has over TLS: {@code __Host-<name>}, this host's alone. */
  private static String hostOnly(String name) {
    return "__Host-" + name;
  }

  /** A cookie that ends the browser's session. */
  public static ResponseCookie ended(ServerRequest request) {
    return cookie(request, "", Duration.ZERO);
  }

  private static ResponseCookie cookie(ServerRequest request, String value, Duration maxAge) {
    return hostCookie(request, COOKIE, value, maxAge);
  }

  /**
   * A cookie of this host alone, for HTTP only: over TLS {@code Secure} and named {@code
   * __Host-<name>}; {@code SameSite=Lax}, so it comes along on a link or redirect from another site
   * but not with a form posted from one.
   */
  public static ResponseCookie hostCookie(
      ServerRequest request, String name, String value, Duration maxAge) {
    boolean tls = SecurityHeaders.overTls(request.exchange().getRequest());
    return ResponseCookie.from(tls ? hostOnly(name) : name, value)
        .httpOnly(true)
        .sameSite("Lax")
        .secure(tls)
        .path("/")
        .maxAge(maxAge)
        .build();
  }
}
