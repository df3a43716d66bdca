package dev.trainyard.gateway.auth;

import dev.trainyard.gateway.http.ApiException;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;

/**
 * Who is asking, as the route guard resolved it: the organization, the role, and the actor the
 * audit log names ({@code id}: {@code token:<first 12 hex digits of its hash>}, or {@code admin};
 * {@code name}: the token's name). A dashboard session asks as the token it signed in with.
 */
public record Caller(String org, Role role, String id, String name) {
  public static final String ATTRIBUTE = "trainyard.caller";

  /** The admin token's caller: every permission, no organization of its own. */
  public static Caller admin(String org) {
    return new Caller(org, Role.ADMIN, "admin", "the admin token");
  }

  /** The caller of this request; null when no token or session was resolved (a public route). */
  public static Caller of(ServerWebExchange exchange) {
    return exchange.getAttribute(ATTRIBUTE);
  }

  /**
   * Refuses (403, nothing done) a request whose caller's role lacks {@code permission}; a request
   * without a caller (the guard let no one through) is refused too.
   */
  public static void require(ServerWebExchange exchange, Permission permission) {
    Caller caller = of(exchange);
    if (caller == null || !caller.role().may(permission)) {
      throw new ApiException(
          HttpStatus.FORBIDDEN,
          (caller == null ? "this request" : "the " + caller.role().wire() + " role")
              + " may not "
              + permission.what()
              + "; nothing was changed");
    }
  }
}
