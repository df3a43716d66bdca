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
 *
 * <p>The dashboard's pages of a repository ({@link #NAMED_PAGES}) name hosts, branches and owners
 * that may hold any character a branch or host may ({@code release+1}, {@code git.local:3000}):
 * there, and only there, a segment may also hold {@code %XX} escapes (upper-case hex) of the bytes
 * outside that set — the one spelling {@link dev.trainyard.common.net.PathSegments} writes — so
 * still every path has one spelling. An escape of a byte that needs none ({@code %2E}, {@code %41})
 * or of {@code /} is not canonical.
 */
@Component
public class CanonicalPaths implements WebFilter, Ordered {
  private static final Pattern CANONICAL = Pattern.compile("(/[A-Za-z0-9_-][A-Za-z0-9._-]*)+");
  private static final Pattern ESCAPED =
      Pattern.compile("(/([A-Za-z0-9_-]|%[0-9A-F]{2})([A-Za-z0-9._-]|%[0-9A-F]{2})*)+");
  private static final Pattern NEEDLESS =
      Pattern.compile("%(2[DEF]|3[0-9]|[46][1-9A-F]|[57][0-9A]|5F)");

  /**
   * Where a segment may hold escapes: the dashboard's pages and forms of one repository, and the
   * {@code /{org}/merge-queue/…} links to them.
   */
  public static final java.util.List<String> NAMED_PAGES =
      java.util.List.of(
          "/ui/queues/", "/ui/actions/queues/", "/ui/flaky-tests/", "/ui/actions/flaky-tests/");

  private static final Pattern DETAILS_URL =
      Pattern.compile("/[A-Za-z0-9_-][A-Za-z0-9._-]*/merge-queue/.*");

  /** The dashboard's overview (API.md §8): the one path with a trailing slash. */
  public static final String DASHBOARD = "/ui/";

  public static boolean isCanonical(String rawPath) {
    if (DASHBOARD.equals(rawPath) || CANONICAL.matcher(rawPath).matches()) {
      return true;
    }
    return (NAMED_PAGES.stream().anyMatch(rawPath::startsWith)
            || DETAILS_URL.matcher(rawPath).matches())
        && ESCAPED.matcher(rawPath).matches()
        && !NEEDLESS.matcher(rawPath).find();
  }

  /** First but for the security headers, which its 404 gets too. */
  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE + 1;
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
