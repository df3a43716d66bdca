package dev.trainyard.gateway.ui;

import dev.trainyard.gateway.auth.Organizations;
import dev.trainyard.gateway.auth.RouteGuard;
import dev.trainyard.gateway.auth.Sessions;
import dev.trainyard.gateway.auth.TokenHash;
import dev.trainyard.gateway.config.GatewayProperties;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.ClientAddresses;
import dev.trainyard.gateway.http.FormBodies;
import dev.trainyard.gateway.http.HeldBodies;
import dev.trainyard.gateway.limits.AttemptThrottle;
import dev.trainyard.gateway.sso.IdentityProviders;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseCookie;
import org.springframework.stereotype.Component;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.util.UriComponentsBuilder;
import reactor.core.publisher.Mono;

/**
 * Sign-in and sign-out (API.md §8): an API token (or the admin token) typed into a form becomes a
 * session cookie (see {@link Sessions#cookie}); the token is never put in a page or a URL. A wrong
 * or revoked token gets the form again with one sentence and no session.
 *
 * <p>Anyone can reach the form, so it costs a gateway little whatever is sent: the body is read as
 * it streams within {@value #MAX_FORM_BYTES} bytes and {@value #MAX_FORM_FIELDS} fields, all
 * sign-in bodies being read at once share a budget of their own ({@link #BODIES_BUDGET}, 503 past
 * it, so they never take the memory the API's bodies need), and attempts are counted per client
 * address before the body is read and per token prefix after it (429 with {@code Retry-After}).
 * Every refused attempt is logged with its address.
 */
@Component
public class SignIn {
  /** Room for a 512-character token and a 2,000-character return path, escaped. */
  public static final int MAX_FORM_BYTES = 16 * 1024;

  public static final int MAX_FORM_FIELDS = 16;

  /** What every sign-in body being read at once may hold: 256 of the largest. */
  public static final long BODIES_BUDGET = 256L * MAX_FORM_BYTES;

  /** Keys each throttle remembers (addresses; token prefixes). */
  static final int REMEMBERED = 10_000;

  /** How much of a typed token keys its throttle: enough to tell tokens apart, never all of it. */
  static final int PREFIX = 8;

  private static final Logger log = LoggerFactory.getLogger(SignIn.class);
  private static final int MAX_TOKEN = 512;
  private final Pages pages;
  private final Sessions sessions;
  private final Organizations organizations;
  private final RouteGuard guard;
  private final FormBodies forms =
      new FormBodies(new HeldBodies(BODIES_BUDGET), MAX_FORM_BYTES, MAX_FORM_FIELDS);
  private final AttemptThrottle byAddress;
  private final AttemptThrottle byPrefix;
  private final boolean addressFromForwarded;
  private final boolean tokenSignIn;
  private final IdentityProviders providers;

  public SignIn(
      Pages pages,
      Sessions sessions,
      Organizations organizations,
      RouteGuard guard,
      GatewayProperties props,
      InstantSource clock,
      IdentityProviders providers) {
    this.pages = pages;
    this.providers = providers;
    this.tokenSignIn = props.dashboard().tokenSignIn();
    this.sessions = sessions;
    this.organizations = organizations;
    this.guard = guard;
    int perMinute = props.dashboard().signInPerMinute();
    this.byAddress = new AttemptThrottle(perMinute, 2 * perMinute, REMEMBERED, clock);
    this.byPrefix = new AttemptThrottle(perMinute, 2 * perMinute, REMEMBERED, clock);
    this.addressFromForwarded = props.dashboard().clientAddressFromForwarded();
  }

  /** The form; a browser that is still signed in goes on to the page it asked for. */
  public Mono<ServerResponse> form(ServerRequest request) {
    return sessions
        .find(Sessions.cookieValue(request))
        .filterWhen(guard::stillSignedIn)
        .flatMap(signedIn -> Pages.seeOther(next(request.queryParam("next").orElse(null))))
        .switchIfEmpty(Mono.defer(() -> page(request, HttpStatus.OK, null)));
  }

  private Mono<ServerResponse> page(ServerRequest request, HttpStatus status, String problem) {
    return page(request, status, problem, next(request.queryParam("next").orElse(null)));
  }

  /**
   * The sign-in page: a button for each identity provider, the token form unless it is switched
   * off, and {@code problem} (when not null) said once above them.
   */
  Mono<ServerResponse> page(ServerRequest request, HttpStatus status, String problem, String next) {
    Map<String, Object> model = new HashMap<>();
    model.put("title", "Sign in");
    model.put("next", next);
    model.put(
        "providers",
        providers.offered().stream()
            .map(
                p ->
                    new ProviderLink(
                        p.id(),
                        p.label(),
                        UriComponentsBuilder.fromPath("/ui/sign-in/{id}")
                            .queryParam("next", "{next}")
                            .encode() // the expanded values strictly: a '&' in next stays in it
                            .buildAndExpand(p.id(), next)
                            .toUriString()))
            .toList());
    model.put("tokenSignIn", tokenSignIn);
    if (problem != null) {
      model.put("problem", problem);
    }
    return pages.render(request, status, "sign-in", model);
  }

  /** A provider's button on the sign-in page. */
  public record ProviderLink(String id, String label, String href) {}

  static String next(String candidate) {
    return SafePaths.sameSite(candidate, "/ui/");
  }

  public Mono<ServerResponse> signIn(ServerRequest request) {
    if (!tokenSignIn) {
      return page(
          request,
          HttpStatus.FORBIDDEN,
          "Signing in with an API token is switched off here; use the button above.");
    }
    if (!RouteGuard.sameOrigin(request)) {
      return pages.error(request, HttpStatus.FORBIDDEN, "the form was sent from another site");
    }
    String address = clientAddress(request);
    ApiException refused = counted(address);
    return refused != null
        ? Mono.error(refused)
        : forms.read(request).flatMap(form -> signIn(request, form, address));
  }

  /**
   * Counts a token sign-in attempt from {@code address}: null while it is within the throttle, else
   * the 429 to answer.
   */
  private ApiException counted(String address) {
    long wait = byAddress.attempt(address);
    if (wait > 0) {
      log.warn("sign-in refused: too many attempts from {}", address);
      return throttled(wait);
    }
    return null;
  }

  private Mono<ServerResponse> signIn(
      ServerRequest request, MultiValueMap<String, String> form, String address) {
    String token = form.getFirst("token");
    String next = next(form.getFirst("next"));
    if (token == null || token.isBlank() || token.length() > MAX_TOKEN) {
      return page(request, HttpStatus.UNAUTHORIZED, "Enter an API token to sign in.");
    }
    String trimmed = token.strip();
    long wait = byPrefix.attempt(trimmed.substring(0, Math.min(PREFIX, trimmed.length())));
    if (wait > 0) {
      log.warn("sign-in refused: too many attempts with one token prefix, from {}", address);
      return Mono.error(throttled(wait));
    }
    boolean admin = guard.isAdminToken(trimmed);
    Mono<Sessions.Created> created =
        admin
            ? sessions.create(null, true, TokenHash.sha256(trimmed))
            : organizations
                .organizationOf(trimmed)
                .flatMap(org -> sessions.create(org, false, TokenHash.sha256(trimmed)));
    return created
        .flatMap(
            c -> {
              log.info(
                  "signed in from {} to {}",
                  address,
                  admin ? "the admin's session" : "organization " + c.session().org());
              return sessions.endEarlier(request).then(signedIn(request, c, next));
            })
        .switchIfEmpty(
            Mono.defer(
                () -> {
                  log.warn("sign-in refused from {}: the token is unknown or revoked", address);
                  return page(
                      request,
                      HttpStatus.UNAUTHORIZED,
                      "That token is unknown or has been revoked.");
                }));
  }

  /**
   * The browser, now signed in as {@code created}, goes on to {@code next} (with {@code also}, the
   * other cookies the answer sets).
   */
  Mono<ServerResponse> signedIn(
      ServerRequest request, Sessions.Created created, String next, ResponseCookie... also) {
    ServerResponse.BodyBuilder answer =
        Pages.redirect(next).cookie(sessions.cookie(request, created));
    for (ResponseCookie cookie : also) {
      answer.cookie(cookie);
    }
    return answer.build();
  }

  static ApiException throttled(long seconds) {
    return ApiException.tooManyRequests(
        "too many sign-in attempts; try again in " + seconds + " s", seconds);
  }

  /** Who is signing in, as the throttle counts them (an IPv6 client as its /64). */
  String clientAddress(ServerRequest request) {
    return ClientAddresses.key(ClientAddresses.of(request, addressFromForwarded));
  }

  public Mono<ServerResponse> signOut(ServerRequest request) {
    Sessions.Session session = RouteGuard.session(request.exchange());
    return sessions
        .delete(session)
        .then(Pages.redirect(RouteGuard.SIGN_IN).cookie(Sessions.ended(request)).build());
  }
}
