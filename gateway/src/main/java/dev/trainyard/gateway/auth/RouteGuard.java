package dev.trainyard.gateway.auth;

import dev.trainyard.common.flaky.FlakyTestsHeaders;
import dev.trainyard.gateway.config.GatewayProperties;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.HeldBodies;
import dev.trainyard.gateway.limits.OrgRateLimiter;
import java.util.function.Supplier;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.HandlerFilterFunction;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebExchange;
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

  private final Organizations organizations;
  private final OrgRateLimiter rateLimiter;
  private final GatewayProperties props;
  private final String adminHash;

  public RouteGuard(
      Organizations organizations, OrgRateLimiter rateLimiter, GatewayProperties props) {
    this.organizations = organizations;
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
    };
  }

  /** The handler runs (is even assembled) only once the check completed without an error. */
  private static Mono<ServerResponse> guarded(
      Supplier<Mono<Void>> check, HandlerFunction<ServerResponse> next, ServerRequest request) {
    return Mono.defer(check).then(Mono.defer(() -> next.handle(request)));
  }

  private Mono<Void> organization(ServerRequest request) {
    String token = token(request);
    return organizations
        .organizationOf(token)
        .switchIfEmpty(
            Mono.error(() -> ApiException.unauthorized("the API token is unknown or revoked")))
        .flatMap(
            org -> {
              request.exchange().getAttributes().put(ORG_ATTRIBUTE, org);
              return rateLimiter.acquire(org);
            })
        .flatMap(
            verdict ->
                verdict.allowed()
                    ? withinBodyLimit(request)
                    : Mono.error(
                        ApiException.tooManyRequests(
                            "the organization's rate limit of "
                                + props.rateLimitPerOrg()
                                + " requests per second is spent; retry after "
                                + verdict.retryAfterSeconds()
                                + " s",
                            verdict.retryAfterSeconds())));
  }

  private Mono<Void> admin(ServerRequest request) {
    String token = token(request);
    if (adminHash == null || !TokenHash.sameHash(adminHash, TokenHash.sha256(token))) {
      return Mono.error(
          ApiException.unauthorized("the x-api-token header does not hold the admin token"));
    }
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
