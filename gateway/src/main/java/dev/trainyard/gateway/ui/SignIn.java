package dev.trainyard.gateway.ui;

import dev.trainyard.gateway.auth.Organizations;
import dev.trainyard.gateway.auth.RouteGuard;
import dev.trainyard.gateway.auth.Sessions;
import dev.trainyard.gateway.auth.TokenHash;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * Sign-in and sign-out (API.md §8): an API token (or the admin token) typed into a form becomes a
 * session cookie ({@code HttpOnly}, {@code SameSite=Strict}, {@code Secure} over TLS or behind a
 * proxy that says so, 12 h); the token is never put in a page or a URL. A wrong or revoked token
 * gets the form again with one sentence and no session.
 */
@Component
public class SignIn {
  private static final int MAX_TOKEN = 512;
  private final Pages pages;
  private final Sessions sessions;
  private final Organizations organizations;
  private final RouteGuard guard;

  public SignIn(Pages pages, Sessions sessions, Organizations organizations, RouteGuard guard) {
    this.pages = pages;
    this.sessions = sessions;
    this.organizations = organizations;
    this.guard = guard;
  }

  public Mono<ServerResponse> form(ServerRequest request) {
    return page(request, HttpStatus.OK, null);
  }

  private Mono<ServerResponse> page(ServerRequest request, HttpStatus status, String problem) {
    String next = SafePaths.sameSite(request.queryParam("next").orElse(null), "/ui/");
    return pages.render(
        request,
        status,
        "sign-in",
        problem == null
            ? Map.of("title", "Sign in", "next", next)
            : Map.of("title", "Sign in", "next", next, "problem", problem));
  }

  public Mono<ServerResponse> signIn(ServerRequest request) {
    if (!RouteGuard.sameOrigin(request)) {
      return pages.error(request, HttpStatus.FORBIDDEN, "the form was sent from another site");
    }
    return request.formData().flatMap(form -> signIn(request, form));
  }

  private Mono<ServerResponse> signIn(ServerRequest request, MultiValueMap<String, String> form) {
    String token = form.getFirst("token");
    String next = SafePaths.sameSite(form.getFirst("next"), "/ui/");
    if (token == null || token.isBlank() || token.length() > MAX_TOKEN) {
      return page(request, HttpStatus.UNAUTHORIZED, "Enter an API token to sign in.");
    }
    String trimmed = token.strip();
    Mono<Sessions.Created> created =
        guard.isAdminToken(trimmed)
            ? sessions.create(null, true, TokenHash.sha256(trimmed))
            : organizations
                .organizationOf(trimmed)
                .flatMap(org -> sessions.create(org, false, TokenHash.sha256(trimmed)));
    return created
        .flatMap(
            c -> Pages.redirect(next).cookie(Sessions.cookie(request, c.cookieValue())).build())
        .switchIfEmpty(
            Mono.defer(
                () ->
                    page(
                        request,
                        HttpStatus.UNAUTHORIZED,
                        "That token is unknown or has been revoked.")));
  }

  public Mono<ServerResponse> signOut(ServerRequest request) {
    Sessions.Session session = RouteGuard.session(request.exchange());
    return sessions
        .delete(session)
        .then(Pages.redirect(RouteGuard.SIGN_IN).cookie(Sessions.cookie(request, "")).build());
  }
}
