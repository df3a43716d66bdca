package dev.trainyard.gateway.auth;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.HandlerFilterFunction;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * The only way to register an endpoint: each route names its {@link Access}, and its handler is
 * wrapped in the {@link RouteGuard} of that level. Authentication is thus decided by the route that
 * will serve the request, after routing, so no spelling of a path can reach a handler with less
 * than that handler's own check (API.md §1 Routing).
 */
public final class SecuredRoutes {
  private final RouteGuard guard;
  private final HandlerFilterFunction<ServerResponse, ServerResponse> mutations;
  private final HandlerFilterFunction<ServerResponse, ServerResponse> pageErrors;
  private final HandlerFilterFunction<ServerResponse, ServerResponse> audit;
  private final List<Route> table = new ArrayList<>();
  private RouterFunction<ServerResponse> routes;

  /** One registered endpoint. */
  public record Route(HttpMethod method, String path, Access access) {}

  /** The router and what it holds, for whoever walks every route (tests, docs). */
  public record Table(RouterFunction<ServerResponse> router, List<Route> routes) {}

  /**
   * @param mutations what wraps every authenticated API POST after its guard (idempotency keys)
   * @param pageErrors what wraps every dashboard route around its guard (errors as HTML pages)
   * @param audit what wraps every mutation (API, admin API, dashboard action) around its guard
   */
  public SecuredRoutes(
      RouteGuard guard,
      HandlerFilterFunction<ServerResponse, ServerResponse> mutations,
      HandlerFilterFunction<ServerResponse, ServerResponse> pageErrors,
      HandlerFilterFunction<ServerResponse, ServerResponse> audit) {
    this.audit = audit;
    this.guard = guard;
    this.mutations = mutations;
    this.pageErrors = pageErrors;
  }

  public SecuredRoutes post(String path, Access access, HandlerFunction<ServerResponse> handler) {
    return add(HttpMethod.POST, path, access, handler, false);
  }

  public SecuredRoutes get(String path, Access access, HandlerFunction<ServerResponse> handler) {
    return add(HttpMethod.GET, path, access, handler, false);
  }

  /** A dashboard route: its errors, the guard's included, are answered as HTML pages. */
  public SecuredRoutes page(
      HttpMethod method, String path, Access access, HandlerFunction<ServerResponse> handler) {
    return add(method, path, access, handler, true);
  }

  private SecuredRoutes add(
      HttpMethod method,
      String path,
      Access access,
      HandlerFunction<ServerResponse> handler,
      boolean page) {
    Objects.requireNonNull(access, () -> "route " + path + " declares no access level");
    if (access == Access.ORGANIZATION && !ApiPermissions.names(path)) {
      throw new IllegalArgumentException("route " + path + " has no entry in ApiPermissions");
    }
    if (!CanonicalPaths.isCanonical(path.replaceAll("\\{\\*?[A-Za-z]+}", "x"))) {
      throw new IllegalArgumentException("route " + path + " is not a canonical path");
    }
    RouterFunction<ServerResponse> route =
        RouterFunctions.route(
            RequestPredicates.method(method).and(RequestPredicates.path(path)), handler);
    if (method == HttpMethod.POST && (access == Access.ORGANIZATION || access == Access.ADMIN)) {
      route = route.filter(mutations);
    }
    route = route.filter(guard.forAccess(access));
    if (method == HttpMethod.POST && access != Access.PUBLIC && !isRead(path)) {
      route = route.filter(audit);
    }
    if (page) {
      route = route.filter(pageErrors);
    }
    routes = routes == null ? route : routes.and(route);
    table.add(new Route(method, path, access));
    return this;
  }

  /** A route that changes nothing: {@code get…} and {@code list…} under any prefix. */
  public static boolean isRead(String path) {
    String name = path.substring(path.lastIndexOf('/') + 1);
    return name.startsWith("get") || name.startsWith("list");
  }

  public Table build() {
    if (routes == null) {
      throw new IllegalStateException("no routes");
    }
    return new Table(routes, List.copyOf(table));
  }
}
