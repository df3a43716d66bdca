package dev.trainyard.gateway.http;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * The headers a browser needs to keep the dashboard safe (API.md §8), on every answer under {@code
 * /ui/} — the error a router, the path filter or the codec gives included, not only the pages the
 * dashboard renders — and {@code Strict-Transport-Security} on every answer that went over TLS. A
 * header the handler set itself (the API reference's own policy) is kept.
 */
@Component
public class SecurityHeaders implements WebFilter, Ordered {
  public static final String CSP =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

  /** A year, as browsers' preload lists ask; only this host (the operator owns its subdomains). */
  public static final String HSTS = "max-age=31536000";

  /** Before {@link dev.trainyard.gateway.auth.CanonicalPaths}, whose 404 is an answer too. */
  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    ServerHttpRequest request = exchange.getRequest();
    String raw = request.getURI().getRawPath();
    boolean page = raw != null && raw.startsWith("/ui/");
    boolean tls = overTls(request);
    if (page || tls) {
      HttpHeaders headers = exchange.getResponse().getHeaders();
      exchange
          .getResponse()
          .beforeCommit(
              () -> {
                if (page) {
                  addPageHeaders(headers);
                }
                if (tls) {
                  headers.set("Strict-Transport-Security", HSTS);
                }
                return Mono.empty();
              });
    }
    return chain.filter(exchange);
  }

  /**
   * A policy without inline scripts, {@code nosniff}, same-origin referrers, no framing, no cache.
   */
  public static void addPageHeaders(HttpHeaders headers) {
    setIfAbsent(headers, "Content-Security-Policy", CSP);
    setIfAbsent(headers, "X-Content-Type-Options", "nosniff");
    setIfAbsent(headers, "Referrer-Policy", "same-origin");
    setIfAbsent(headers, "X-Frame-Options", "DENY");
    setIfAbsent(headers, HttpHeaders.CACHE_CONTROL, "no-store");
  }

  private static void setIfAbsent(HttpHeaders headers, String name, String value) {
    if (!headers.containsHeader(name)) {
      headers.set(name, value);
    }
  }

  /**
   * Whether the browser came over TLS: the request's scheme, or a proxy in front saying so ({@code
   * X-Forwarded-Proto}), or the page that sent it ({@code Origin}).
   */
  public static boolean overTls(ServerHttpRequest request) {
    String origin = request.getHeaders().getFirst(HttpHeaders.ORIGIN);
    return "https".equalsIgnoreCase(request.getURI().getScheme())
        || "https".equalsIgnoreCase(request.getHeaders().getFirst("X-Forwarded-Proto"))
        || origin != null && origin.startsWith("https:");
  }
}
