package dev.trainyard.gateway.auth;

import dev.trainyard.gateway.http.ErrorHandler;
import java.util.regex.Pattern;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Answers 404 to any path not written the one way trainyard's routes are: segments of letters,
 * digits, {@code -}, {@code _} and {@code .} that do not start with a dot, no percent-encoding, no
 * {@code ;} parameters, no empty segment and no trailing slash. The router matches decoded,
 * parameter-free paths; refusing every other spelling of them before anything else runs means the
 * path a filter sees and the path the router serves cannot differ (defence in depth beside the
 * route-bound {@link RouteGuard}).
 */
@Component
public class CanonicalPaths implements WebFilter, Ordered {
  private static final Pattern CANONICAL = Pattern.compile("(/[A-Za-z0-9_-][A-Za-z0-9._-]*)+");

  /** The dashboard's overview (API.md §8): the one path with a trailing slash. */
  public static final String DASHBOARD = "/ui/";

  public static boolean isCanonical(String rawPath) {
    return DASHBOARD.equals(rawPath) || CANONICAL.matcher(rawPath).matches();
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    String raw = exchange.getRequest().getURI().getRawPath();
    if (raw == null || !isCanonical(raw)) {
      return ErrorHandler.write(
          exchange.getResponse(), HttpStatus.NOT_FOUND, "no endpoint has this path");
    }
    return chain.filter(exchange);
  }
}
