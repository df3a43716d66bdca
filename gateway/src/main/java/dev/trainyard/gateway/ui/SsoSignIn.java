package dev.trainyard.gateway.ui;

import dev.trainyard.gateway.auth.Person;
import dev.trainyard.gateway.auth.Sessions;
import dev.trainyard.gateway.auth.TokenHash;
import dev.trainyard.gateway.config.GatewayProperties;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.limits.AttemptThrottle;
import dev.trainyard.gateway.sso.IdentityProviders;
import dev.trainyard.gateway.sso.PendingSignIns;
import dev.trainyard.gateway.sso.People;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.ReactiveAuthenticationManager;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthorizationCodeAuthenticationToken;
import org.springframework.security.oauth2.client.authentication.OAuth2LoginAuthenticationToken;
import org.springframework.security.oauth2.client.authentication.OAuth2LoginReactiveAuthenticationManager;
import org.springframework.security.oauth2.client.endpoint.WebClientReactiveAuthorizationCodeTokenResponseClient;
import org.springframework.security.oauth2.client.oidc.authentication.OidcAuthorizationCodeReactiveAuthenticationManager;
import org.springframework.security.oauth2.client.oidc.userinfo.OidcReactiveOAuth2UserService;
import org.springframework.security.oauth2.client.userinfo.DefaultReactiveOAuth2UserService;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizationRequestCustomizers;
import org.springframework.security.oauth2.client.web.server.DefaultServerOAuth2AuthorizationRequestResolver;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationExchange;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * Signing in through an identity provider (API.md §8, ADR 0036), with Spring Security's OAuth 2.0 /
 * OpenID Connect client: {@code GET /ui/sign-in/{provider}} sends the browser to the provider with
 * a fresh state, nonce and PKCE challenge (kept by {@link PendingSignIns}, the state also in a
 * cookie of this browser), and {@code GET /ui/sign-in/{provider}/callback} takes the code back,
 * redeems it, checks the ID token (signature, issuer, audience, nonce), maps the person to
 * organizations and roles ({@link People}) and starts a session under a new id, ending the one the
 * browser had. A callback from another browser (its state not in this one's cookie), a replayed or
 * expired one, a provider's refusal and a person no rule maps all get the sign-in page with one
 * sentence and no session. Starting counts against a throttle per client address ({@value
 * #SHARED_ADDRESS_FACTOR} times the token form's, as an office signs in from one address); coming
 * back stores nothing and needs this browser's state cookie. The provider unreachable or silent
 * past its timeout: 503; answering what cannot be used: 502; the store's failures stay the store's.
 */
@Component
public class SsoSignIn {
  /** The cookie that binds a sign-in to the browser that started it (login CSRF). */
  static final String STATE_COOKIE = "trainyard_sign_in";

  private static final int MAX_STATE = 512;

  /**
   * Sign-ins a client address may start per minute, as a multiple of the token form's: people
   * behind one office address all sign in at nine, and a start only stores a pending request.
   */
  static final int SHARED_ADDRESS_FACTOR = 6;

  /** How long the provider may take to redeem a code and say who the person is. */
  static final Duration PROVIDER_TIMEOUT = Duration.ofSeconds(15);

  private static final Logger log = LoggerFactory.getLogger(SsoSignIn.class);

  private final IdentityProviders providers;
  private final PendingSignIns pending;
  private final People people;
  private final Sessions sessions;
  private final SignIn signIn;
  private final DefaultServerOAuth2AuthorizationRequestResolver resolver;
  private final ReactiveAuthenticationManager oidc;
  private final ReactiveAuthenticationManager github;
  private final AttemptThrottle starts;

  public SsoSignIn(
      IdentityProviders providers,
      PendingSignIns pending,
      People people,
      Sessions sessions,
      SignIn signIn,
      GatewayProperties props,
      InstantSource clock) {
    int perMinute = SHARED_ADDRESS_FACTOR * props.dashboard().signInPerMinute();
    this.starts = new AttemptThrottle(perMinute, 2 * perMinute, SignIn.REMEMBERED, clock);
    this.providers = providers;
    this.pending = pending;
    this.people = people;
    this.sessions = sessions;
    this.signIn = signIn;
    this.resolver = new DefaultServerOAuth2AuthorizationRequestResolver(providers);
    resolver.setAuthorizationRequestCustomizer(OAuth2AuthorizationRequestCustomizers.withPkce());
    this.oidc =
        new OidcAuthorizationCodeReactiveAuthenticationManager(
            new WebClientReactiveAuthorizationCodeTokenResponseClient(),
            new OidcReactiveOAuth2UserService());
    this.github =
        new OAuth2LoginReactiveAuthenticationManager(
            new WebClientReactiveAuthorizationCodeTokenResponseClient(),
            new DefaultReactiveOAuth2UserService());
  }

  /** {@code GET /ui/sign-in/{provider}}: off to the provider. */
  public Mono<ServerResponse> start(ServerRequest request) {
    String provider = offered(request);
    String next = SignIn.next(request.queryParam("next").orElse(null));
    String address = signIn.clientAddress(request);
    long wait = starts.attempt(address);
    if (wait > 0) {
      log.warn("sign-in with {} refused: too many started from {}", provider, address);
      return Mono.error(SignIn.throttled(wait));
    }
    return resolver
        .resolve(request.exchange(), provider)
        .onErrorMap(ProviderFailure::new) // the discovery read's; the store's stay what they are
        .flatMap(
            authorization ->
                pending.save(authorization, next).then(toProvider(request, authorization)))
        .onErrorResume(
            ProviderFailure.class, e -> unreachable(request, provider, next, e.getCause()));
  }

  /** Something the identity provider did (or did not do), told apart from the store's failures. */
  private static final class ProviderFailure extends RuntimeException {
    ProviderFailure(Throwable cause) {
      super(cause);
    }
  }

  private static Mono<ServerResponse> toProvider(
      ServerRequest request, OAuth2AuthorizationRequest authorization) {
    return ServerResponse.seeOther(URI.create(authorization.getAuthorizationRequestUri()))
        .cookie(
            Sessions.hostCookie(
                request, STATE_COOKIE, authorization.getState(), PendingSignIns.KEPT))
        .build();
  }

  /** {@code GET /ui/sign-in/{provider}/callback}: back from the provider. */
  public Mono<ServerResponse> callback(ServerRequest request) {
    String provider = offered(request);
    String address = signIn.clientAddress(request);
    String state = request.queryParam("state").orElse("");
    if (state.isEmpty() || state.length() > MAX_STATE) {
      return problem(
          request,
          HttpStatus.BAD_REQUEST,
          "That sign-in came back without its state; sign in again.",
          "/ui/");
    }
    String bound = Sessions.cookieValue(request, STATE_COOKIE);
    if (bound == null || !TokenHash.sameHash(bound, state)) {
      log.warn("sign-in with {} refused from {}: started in another browser", provider, address);
      return problem(
          request,
          HttpStatus.FORBIDDEN,
          "That sign-in was started in another browser or has expired; sign in again here.",
          "/ui/");
    }
    return pending
        .take(state)
        .filter(p -> provider.equals(p.request().getAttribute("registration_id")))
        .flatMap(p -> Mono.defer(() -> complete(request, provider, address, p)))
        .switchIfEmpty(
            Mono.defer(
                () ->
                    problem(
                        request,
                        HttpStatus.BAD_REQUEST,
                        "That sign-in has expired or was already used; sign in again.",
                        "/ui/")));
  }

  private Mono<ServerResponse> complete(
      ServerRequest request, String provider, String address, PendingSignIns.Pending p) {
    String error = request.queryParam("error").orElse(null);
    if (error != null) {
      String said = request.queryParam("error_description").orElse(error);
      log.warn("sign-in with {} refused by the provider for {}: {}", provider, address, error);
      return problem(
          request,
          HttpStatus.UNAUTHORIZED,
          "The identity provider did not sign you in: " + clip(said),
          p.next());
    }
    String code = request.queryParam("code").orElse("");
    if (code.isBlank()) {
      return problem(
          request,
          HttpStatus.BAD_REQUEST,
          "That sign-in came back without a code; sign in again.",
          p.next());
    }
    OAuth2AuthorizationResponse response =
        OAuth2AuthorizationResponse.success(code)
            .redirectUri(p.request().getRedirectUri())
            .state(p.request().getState())
            .build();
    ReactiveAuthenticationManager manager =
        provider.equals(IdentityProviders.GITHUB) ? github : oidc;
    return providers
        .findByRegistrationId(provider)
        .flatMap(
            registration ->
                manager.authenticate(
                    new OAuth2AuthorizationCodeAuthenticationToken(
                        registration, new OAuth2AuthorizationExchange(p.request(), response))))
        .timeout(PROVIDER_TIMEOUT)
        .cast(OAuth2LoginAuthenticationToken.class)
        .flatMap(signedIn -> people.of(provider, signedIn))
        .onErrorMap(e -> !(e instanceof OAuth2AuthenticationException), ProviderFailure::new)
        .flatMap(person -> admit(request, provider, address, person, p.next()))
        .onErrorResume(
            OAuth2AuthenticationException.class,
            e -> {
              OAuth2Error why = e.getError();
              log.warn(
                  "sign-in with {} failed for {}: {} {}",
                  provider,
                  address,
                  why.getErrorCode(),
                  why.getDescription());
              return problem(
                  request,
                  HttpStatus.UNAUTHORIZED,
                  "The identity provider's answer was not accepted ("
                      + why.getErrorCode()
                      + "); sign in again.",
                  p.next());
            })
        .onErrorResume(
            ProviderFailure.class, e -> unreachable(request, provider, p.next(), e.getCause()));
  }

  private Mono<ServerResponse> admit(
      ServerRequest request, String provider, String address, Person person, String next) {
    if (person.memberships().isEmpty()) {
      log.warn(
          "sign-in with {} refused for {} from {}: no rule maps them to an organization",
          provider,
          person.id(),
          address);
      return problem(
          request,
          HttpStatus.FORBIDDEN,
          "You are signed in at the identity provider as "
              + person.name()
              + ", but no organization here is mapped to your groups or teams; ask an admin.",
          next);
    }
    log.info(
        "signed in from {} with {} as {} ({}), organizations {}",
        address,
        provider,
        person.id(),
        person.name(),
        person.memberships());
    return sessions
        .endEarlier(request)
        .then(sessions.create(person))
        .flatMap(
            created ->
                signIn.signedIn(
                    request,
                    created,
                    next,
                    Sessions.hostCookie(request, STATE_COOKIE, "", Duration.ZERO)));
  }

  /**
   * The provider could not be reached or did not answer in time (503), or answered what this
   * gateway cannot use (502): the sign-in page says so.
   */
  private Mono<ServerResponse> unreachable(
      ServerRequest request, String provider, String next, Throwable e) {
    boolean away = false;
    for (Throwable t = e; t != null && !away; t = t.getCause()) {
      away =
          t instanceof java.io.IOException
              || t instanceof WebClientRequestException
              || t instanceof TimeoutException;
    }
    log.warn("sign-in with {} failed: {}", provider, e.toString());
    return problem(
        request,
        away ? HttpStatus.SERVICE_UNAVAILABLE : HttpStatus.BAD_GATEWAY,
        away
            ? "The identity provider could not be reached; try again in a minute."
            : "The identity provider answered in a way this gateway cannot use; ask an admin.",
        next);
  }

  private Mono<ServerResponse> problem(
      ServerRequest request, HttpStatus status, String problem, String next) {
    return signIn.page(request, status, problem, next);
  }

  private String offered(ServerRequest request) {
    String provider = request.pathVariable("provider");
    if (providers.offered().stream().noneMatch(o -> o.id().equals(provider))) {
      throw ApiException.notFound("no identity provider " + provider + " is configured here");
    }
    return provider;
  }

  private static String clip(String said) {
    return said.length() > 200 ? said.substring(0, 200) + "…" : said;
  }
}
