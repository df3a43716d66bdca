package dev.trainyard.gateway.auth;

import dev.trainyard.common.flaky.FlakyTestsHeaders;
import dev.trainyard.gateway.config.GatewayProperties;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.FormBodies;
import dev.trainyard.gateway.http.HeldBodies;
import dev.trainyard.gateway.limits.OrgRateLimiter;
import java.net.URI;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.HandlerFilterFunction;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.UriComponentsBuilder;
import reactor.core.publisher.Mono;

/**
 * What a route's {@link Access} demands, checked after routing and before anything reads the body:
 * the token ({@code x-api-token} → organization, or the admin token), the organization's rate limit
 * (429 with {@code Retry-After}), and a declared body over the limit (413 before it is received; a
 * chunked body is cut off by the codec limit while it streams in).
 */
@Component
public class RouteGuard {
  public static final String ORG_ATTRIBUTE = "trainyard.org";
  public static final String TOKEN_HEADER = "x-api-token";
  public static final String SESSION_ATTRIBUTE = "trainyard.session";
  public static final String CSRF_FIELD = "_csrf";
  public static final String SIGN_IN = "/ui/sign-in";

  /** Sent by an open page reading itself again after a live update (live.js), not by a person. */
  public static final String REFRESH_HEADER = "X-Trainyard-Refresh";

  /** The pages an admin's session reaches before it has chosen an organization to look at. */
  private static final Set<String> ADMIN_WITHOUT_ORG =
      Set.of("/ui/", "/ui/organizations", "/ui/actions/look-at", "/ui/sign-out");

  private final Organizations organizations;
  private final Sessions sessions;
  private final OrgRateLimiter rateLimiter;
  private final GatewayProperties props;
  private final String adminHash;
  private final FormBodies forms;
  private final Memberships memberships;

  /** A dashboard form's limits: the settings form is the largest, at some 2 KiB and 30 fields. */
  public static final long MAX_FORM_BYTES = 64 * 1024;

  public static final int MAX_FORM_FIELDS = 256;

  public RouteGuard(
      Organizations organizations,
      Sessions sessions,
      OrgRateLimiter rateLimiter,
      GatewayProperties props,
      HeldBodies bodies,
      Memberships memberships) {
    this.memberships = memberships;
    this.forms = new FormBodies(bodies, MAX_FORM_BYTES, MAX_FORM_FIELDS);
    this.organizations = organizations;
    this.sessions = sessions;
    this.rateLimiter = rateLimiter;
    this.props = props;
    this.adminHash =
        props.adminToken() == null || props.adminToken().isEmpty()
            ? null
            : TokenHash.sha256(props.adminToken());
  }

  HandlerFilterFunction<ServerResponse, ServerResponse> forAccess(Access access) {
    return switch (access) {
      case PUBLIC -> (request, next) -> guarded(() -> withinBodyLimit(request), next, request);
      case ORGANIZATION -> (request, next) -> guarded(() -> organization(request), next, request);
      case ADMIN -> (request, next) -> guarded(() -> admin(request), next, request);
      case SESSION -> this::session;
    };
  }

  /**
   * A dashboard request: the session its cookie names, still signed in with a token that still
   * works; else the sign-in page, which leads back here (a GET) or to the overview (a POST, whose
   * form is gone). A POST must carry the session's CSRF token and, when the browser names its
   * origin, come from this host: otherwise 403 and nothing runs.
   */
  private Mono<ServerResponse> session(
      ServerRequest request, HandlerFunction<ServerResponse> next) {
    return sessions
        .find(Sessions.cookieValue(request))
        .map(this::current)
        .flatMap(session -> callerOf(session).map(caller -> new SignedIn(session, caller)))
        .map(Optional::of)
        .defaultIfEmpty(Optional.empty())
        .flatMap(
            found ->
                found.isPresent()
                    ? enter(request, next, found.get().session(), found.get().caller())
                    : signInFirst(request));
  }

  private record SignedIn(Sessions.Session session, Caller caller) {}

  /**
   * Who a session acts as: the token it signed in with, with that token's role as it is now; empty
   * once the token is revoked (or the admin token changed), which ends the session at once. A
   * person acts with the role their identity provider's groups gave them in the organization shown.
   */
  private Mono<Caller> callerOf(Sessions.Session session) {
    if (session.person() != null) {
      return Mono.justOrEmpty(current(session).person().callerIn(session.org()));
    }
    if (session.admin()) {
      return adminHash != null && TokenHash.sameHash(adminHash, session.tokenHash())
          ? Mono.just(Caller.admin(session.org()))
          : Mono.empty();
    }
    return organizations
        .tokenOfHash(session.tokenHash())
        .filter(token -> token.org().equals(session.org()))
        .map(Organizations.Token::caller);
  }

  /** {@code session} with its person's memberships as the rules give them now. */
  private Sessions.Session current(Sessions.Session session) {
    Person person = session.person();
    return person == null
        ? session
        : session.with(person.withMemberships(memberships.of(person.provider(), person.keys())));
  }

  /** Whether the token the session signed in with still works (revocation ends it at once). */
  public Mono<Boolean> stillSignedIn(Sessions.Session session) {
    return callerOf(session).hasElement();
  }

  /** Whether {@code session} still stands: not signed out, not expired, its token not revoked. */
  public Mono<Boolean> alive(Sessions.Session session) {
    return sessions.again(session).filterWhen(this::stillSignedIn).hasElement();
  }

  /** Whether {@code token} is the admin token. */
  public boolean isAdminToken(String token) {
    return adminHash != null && TokenHash.sameHash(adminHash, TokenHash.sha256(token));
  }

  private Mono<ServerResponse> enter(
      ServerRequest request,
      HandlerFunction<ServerResponse> next,
      Sessions.Session session,
      Caller caller) {
    request.exchange().getAttributes().put(SESSION_ATTRIBUTE, session);
    request.exchange().getAttributes().put(Caller.ATTRIBUTE, caller);
    String path = request.path();
    // an open page's live stream, and the page reading itself again on it, are no one at the
    // keyboard: they do not keep a session awake
    boolean byPage =
        path.equals("/ui/events") || request.headers().firstHeader(REFRESH_HEADER) != null;
    Mono<Void> touched = byPage ? Mono.empty() : sessions.touch(session);
    return touched.then(Mono.defer(() -> enterTouched(request, next, session, path)));
  }

  private Mono<ServerResponse> enterTouched(
      ServerRequest request,
      HandlerFunction<ServerResponse> next,
      Sessions.Session session,
      String path) {
    if (session.org() == null) {
      return ADMIN_WITHOUT_ORG.contains(path)
          ? checked(request, next, session)
          : ServerResponse.seeOther(URI.create("/ui/")).build();
    }
    String linked = request.queryParam("org").orElse(null);
    if (linked != null && !linked.equals(session.org())) {
      // a link from an event or a listing names its organization: another one's page is a 404
      return Mono.error(
          ApiException.notFound(
              "this link leads to a page of organization "
                  + linked
                  + ", and this session shows "
                  + session.org()
                  + (session.switches() ? " (switch organization to see it)" : "")));
    }
    request.exchange().getAttributes().put(ORG_ATTRIBUTE, session.org());
    return rateLimiter
        .acquireForDashboard(session.org())
        .flatMap(
            verdict ->
                verdict.allowed()
                    ? checked(request, next, session)
                    : Mono.error(
                        ApiException.tooManyRequests(
                            "the organization's dashboard rate limit is spent; retry after "
                                + verdict.retryAfterSeconds()
                                + " s",
                            verdict.retryAfterSeconds())));
  }

  private Mono<ServerResponse> checked(
      ServerRequest request, HandlerFunction<ServerResponse> next, Sessions.Session session) {
    if (request.method() != HttpMethod.POST) {
      if (session.org() != null) {
        // pages show the organization: a token that may not read it (CI's submit scope) sees none
        Caller.require(request.exchange(), Permission.READ);
      }
      return next.handle(request);
    }
    if (!sameOrigin(request)) {
      return Mono.error(forbidden("the form was sent from another site"));
    }
    return forms
        .read(request)
        .flatMap(
            form -> {
              String sent = form.getFirst(CSRF_FIELD);
              return sent != null && TokenHash.sameHash(sent, session.csrf())
                  ? next.handle(request)
                  : Mono.error(
                      forbidden(
                          "the form's security token is missing or wrong (reload the page and"
                              + " try again)"));
            });
  }

  private static ApiException forbidden(String why) {
    return new ApiException(HttpStatus.FORBIDDEN, why + "; nothing was changed");
  }

  /**
   * Whether a POST came from this host: the {@code Origin} a browser sends (absent from old
   * browsers and same-origin GETs) must name the host the request was sent to.
   */
  public static boolean sameOrigin(ServerRequest request) {
    String origin = request.headers().firstHeader(HttpHeaders.ORIGIN);
    if (origin == null) {
      return true;
    }
    String host = request.headers().firstHeader("X-Forwarded-Host");
    if (host == null) {
      host = request.headers().firstHeader(HttpHeaders.HOST);
    }
    try {
      URI from = URI.create(origin);
      String authority =
          from.getPort() < 0 ? from.getHost() : from.getHost() + ":" + from.getPort();
      return host != null
          && (host.equalsIgnoreCase(authority) || hostOnly(host).equalsIgnoreCase(authority));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** {@code host:443} and {@code host:80} as browsers write them: without the default port. */
  private static String hostOnly(String host) {
    return host.endsWith(":443") || host.endsWith(":80")
        ? host.substring(0, host.lastIndexOf(':'))
        : host;
  }

  /**
   * The sign-in page, then back to the page asked for (a GET) or the overview; a cookie naming a
   * session that ended (signed out, expired, its token revoked) is dropped from the browser.
   */
  private static Mono<ServerResponse> signInFirst(ServerRequest request) {
    ServerResponse.BodyBuilder answer =
        request.path().equals("/ui/events")
            ? ServerResponse.status(HttpStatus.UNAUTHORIZED)
            : ServerResponse.seeOther(
                UriComponentsBuilder.fromPath(SIGN_IN)
                    .queryParam(
                        "next", request.method() == HttpMethod.GET ? pathAndQuery(request) : "/ui/")
                    .encode()
                    .build()
                    .toUri());
    if (Sessions.cookieValue(request) != null) {
      answer.cookie(Sessions.ended(request));
    }
    return answer.build();
  }

  private static String pathAndQuery(ServerRequest request) {
    String query = request.uri().getRawQuery();
    return request.path() + (query == null ? "" : "?" + query);
  }

  /** The session the guard resolved for this dashboard request. */
  public static Sessions.Session session(ServerWebExchange exchange) {
    return exchange.getRequiredAttribute(SESSION_ATTRIBUTE);
  }

  /** The handler runs (is even assembled) only once the check completed without an error. */
  private static Mono<ServerResponse> guarded(
      Supplier<Mono<Void>> check, HandlerFunction<ServerResponse> next, ServerRequest request) {
    return Mono.defer(check).then(Mono.defer(() -> next.handle(request)));
  }

  private Mono<Void> organization(ServerRequest request) {
    String token = token(request);
    return organizations
        .tokenOf(token)
        .switchIfEmpty(
            Mono.error(() -> ApiException.unauthorized("the API token is unknown or revoked")))
        .flatMap(
            found -> {
              request.exchange().getAttributes().put(ORG_ATTRIBUTE, found.org());
              request.exchange().getAttributes().put(Caller.ATTRIBUTE, found.caller());
              return rateLimiter.acquire(found.org());
            })
        .flatMap(
            verdict -> {
              if (!verdict.allowed()) {
                return Mono.error(
                    ApiException.tooManyRequests(
                        "the organization's rate limit of "
                            + props.rateLimitPerOrg()
                            + " requests per second is spent; retry after "
                            + verdict.retryAfterSeconds()
                            + " s",
                        verdict.retryAfterSeconds()));
              }
              // after the rate limit: the bucket bounds refusals (and their audit events) too
              Caller.require(request.exchange(), ApiPermissions.of(request.path()));
              return withinBodyLimit(request);
            });
  }

  private Mono<Void> admin(ServerRequest request) {
    if (!isAdminToken(token(request))) {
      return Mono.error(
          ApiException.unauthorized("the x-api-token header does not hold the admin token"));
    }
    request.exchange().getAttributes().put(Caller.ATTRIBUTE, Caller.admin(null));
    return withinBodyLimit(request);
  }

  private static String token(ServerRequest request) {
    String token = request.headers().firstHeader(TOKEN_HEADER);
    if (token == null || token.isEmpty()) {
      throw ApiException.unauthorized("the x-api-token header is missing or empty");
    }
    return token;
  }

  private Mono<Void> withinBodyLimit(ServerRequest request) {
    long length = request.headers().contentLength().orElse(-1);
    boolean upload = request.requestPath().value().equals(FlakyTestsHeaders.UPLOAD_PATH);
    long limit = upload ? FlakyTestsHeaders.MAX_UPLOAD_BYTES : props.maxBodyBytes();
    if (length > limit) {
      return Mono.error(HeldBodies.tooLarge(limit));
    }
    return Mono.empty();
  }

  /** The organization the guard resolved for this request. */
  public static String org(ServerWebExchange exchange) {
    return exchange.getRequiredAttribute(ORG_ATTRIBUTE);
  }
}
