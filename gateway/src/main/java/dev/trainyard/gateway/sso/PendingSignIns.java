package dev.trainyard.gateway.sso;

import dev.trainyard.gateway.auth.TokenHash;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Sign-ins sent to an identity provider and not back yet: the authorization request (its state,
 * nonce and PKCE verifier) kept in the store under the hash of its state, so the browser may come
 * back to any gateway replica, for {@link #KEPT} at most, and taken once: a callback replayed finds
 * nothing.
 */
@Component
public class PendingSignIns {
  public static final String COLLECTION = "sso_pending";

  /** How long a person has at their provider before the sign-in must start again. */
  public static final Duration KEPT = Duration.ofMinutes(10);

  private final ReactiveMongoTemplate mongo;
  private final InstantSource clock;

  /** A sign-in on its way: the request sent, and the dashboard page to go on to afterwards. */
  public record Pending(OAuth2AuthorizationRequest request, String next) {}

  public PendingSignIns(ReactiveMongoTemplate mongo, InstantSource clock) {
    this.mongo = mongo;
    this.clock = clock;
  }

  public Mono<Void> save(OAuth2AuthorizationRequest request, String next) {
    return mongo.insert(document(request, next, clock.instant().plus(KEPT)), COLLECTION).then();
  }

  /**
   * The document a pending sign-in is kept as. Its id is the state's hash, so the one lookup a
   * callback makes needs no second index; the state itself is kept too, as the request it rebuilds
   * must carry it (it is no secret once the browser has been sent to the provider, and lives ten
   * minutes).
   */
  static Document document(OAuth2AuthorizationRequest request, String next, Instant expires) {
    return new Document("_id", TokenHash.sha256(request.getState()))
        .append("next", next)
        .append("authorizationUri", request.getAuthorizationUri())
        .append("clientId", request.getClientId())
        .append("redirectUri", request.getRedirectUri())
        .append("scopes", List.copyOf(request.getScopes()))
        .append("state", request.getState())
        .append("additionalParameters", strings(request.getAdditionalParameters()))
        .append("attributes", strings(request.getAttributes()))
        .append("authorizationRequestUri", request.getAuthorizationRequestUri())
        .append("expiresAt", Date.from(expires));
  }

  /** The sign-in {@code state} names, removed so it cannot be completed twice; empty if none. */
  public Mono<Pending> take(String state) {
    return mongo
        .findAndRemove(
            Query.query(Criteria.where("_id").is(TokenHash.sha256(state))),
            Document.class,
            COLLECTION)
        .filter(doc -> doc.getDate("expiresAt").toInstant().isAfter(clock.instant()))
        .map(PendingSignIns::pending);
  }

  static Pending pending(Document doc) {
    OAuth2AuthorizationRequest request =
        OAuth2AuthorizationRequest.authorizationCode()
            .authorizationUri(doc.getString("authorizationUri"))
            .clientId(doc.getString("clientId"))
            .redirectUri(doc.getString("redirectUri"))
            .scopes(new LinkedHashSet<>(doc.getList("scopes", String.class)))
            .state(doc.getString("state"))
            .additionalParameters(objects(doc.get("additionalParameters", Document.class)))
            .attributes(objects(doc.get("attributes", Document.class)))
            .authorizationRequestUri(doc.getString("authorizationRequestUri"))
            .build();
    return new Pending(request, doc.getString("next"));
  }

  /** The request's parameters and attributes are all strings (nonce, PKCE, registration id). */
  private static Document strings(Map<String, Object> values) {
    Document doc = new Document();
    values.forEach((k, v) -> doc.append(k, String.valueOf(v)));
    return doc;
  }

  private static Map<String, Object> objects(Document doc) {
    return doc == null ? Map.of() : new HashMap<>(doc);
  }
}
