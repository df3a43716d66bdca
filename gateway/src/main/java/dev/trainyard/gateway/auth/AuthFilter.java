package dev.trainyard.gateway.auth;

import dev.trainyard.common.flaky.FlakyTestsHeaders;
import dev.trainyard.gateway.config.GatewayProperties;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.ErrorHandler;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Resolves {@code x-api-token} to an organization before anything reads the body, then refuses a
 * declared body over the limit before it is received (a chunked body is cut off by the codec limit
 * while it streams in).
 */
@Component
public class AuthFilter implements WebFilter, Ordered {
  public static final String ORG_ATTRIBUTE = "trainyard.org";
  public static final String TOKEN_HEADER = "x-api-token";

  private final Organizations organizations;
  private final GatewayProperties props;
  private final String adminHash;

  public AuthFilter(Organizations organizations, GatewayProperties props) {
    this.organizations = organizations;
    this.props = props;
    this.adminHash =
        props.adminToken() == null || props.adminToken().isEmpty()
            ? null
            : TokenHash.sha256(props.adminToken());
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE + 10;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    String path = exchange.getRequest().getPath().pathWithinApplication().value();
    boolean admin = path.startsWith("/admin/v1/");
    if (!admin && !path.startsWith("/v1/")) {
      return chain.filter(exchange);
    }
    String token = exchange.getRequest().getHeaders().getFirst(TOKEN_HEADER);
    if (token == null || token.isEmpty()) {
      return reject(exchange, "the x-api-token header is missing or empty");
    }
    if (admin) {
      return adminHash != null && TokenHash.sameHash(adminHash, TokenHash.sha256(token))
          ? withinLimit(exchange, chain)
          : reject(exchange, "the x-api-token header does not hold the admin token");
    }
    return organizations
        .organizationOf(token)
        .flatMap(
            org -> {
              exchange.getAttributes().put(ORG_ATTRIBUTE, org);
              return withinLimit(exchange, chain).thenReturn(true);
            })
        .switchIfEmpty(
            Mono.defer(
                () -> reject(exchange, "the API token is unknown or revoked").thenReturn(true)))
        .then();
  }

  private Mono<Void> withinLimit(ServerWebExchange exchange, WebFilterChain chain) {
    long length = exchange.getRequest().getHeaders().getContentLength();
    boolean upload =
        exchange
            .getRequest()
            .getPath()
            .pathWithinApplication()
            .value()
            .equals(FlakyTestsHeaders.UPLOAD_PATH);
    long limit = upload ? FlakyTestsHeaders.MAX_UPLOAD_BYTES : props.maxBodyBytes();
    if (length > limit) {
      return ErrorHandler.write(
          exchange.getResponse(),
          HttpStatus.CONTENT_TOO_LARGE,
          "the request body is larger than the limit of " + (limit >> 20) + " MiB");
    }
    return chain.filter(exchange);
  }

  private static Mono<Void> reject(ServerWebExchange exchange, String message) {
    ApiException e = ApiException.unauthorized(message);
    return ErrorHandler.write(exchange.getResponse(), e.status(), e.getMessage());
  }

  /** The organization the filter resolved for this request. */
  public static String org(ServerWebExchange exchange) {
    return exchange.getRequiredAttribute(ORG_ATTRIBUTE);
  }
}
