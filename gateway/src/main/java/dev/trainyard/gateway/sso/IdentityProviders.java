package dev.trainyard.gateway.sso;

import dev.trainyard.gateway.config.GatewayProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrations;
import org.springframework.security.oauth2.client.registration.ReactiveClientRegistrationRepository;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The identity providers this deployment offers (API.md §8): {@value #OIDC} (an OpenID Connect
 * provider, its endpoints and keys read from its discovery document on first use, so a gateway
 * starts while the provider is away) and {@value #GITHUB} (GitHub's OAuth web flow). Each is a
 * Spring Security client registration; the browser comes back to {@code
 * /ui/sign-in/{provider}/callback}.
 */
@Component
public class IdentityProviders implements ReactiveClientRegistrationRepository {
  public static final String OIDC = "oidc";
  public static final String GITHUB = "github";

  /** How long reading the provider's discovery document may take before a sign-in gives up. */
  static final Duration DISCOVERY_TIMEOUT = Duration.ofSeconds(10);

  /** How long a failed discovery read answers for the provider before it is tried again. */
  static final Duration FAILURE_KEPT = Duration.ofSeconds(30);

  /** A discovered registration is kept for the gateway's life. */
  private static final Duration KEPT = Duration.ofDays(3650);

  /** A provider as the sign-in page offers it. */
  public record Offered(String id, String label) {}

  private final GatewayProperties.Sso sso;
  private final String redirectUri;
  private final ClientRegistration github;
  private final AtomicReference<Mono<ClientRegistration>> discovery = new AtomicReference<>();

  public IdentityProviders(GatewayProperties props) {
    this.sso = props.sso();
    this.redirectUri =
        (sso.redirectBaseUrl() == null ? "{baseUrl}" : sso.redirectBaseUrl())
            + "/ui/sign-in/{registrationId}/callback";
    GatewayProperties.GithubSignIn gh = sso.github();
    String api = gh.apiUrl() != null ? gh.apiUrl() : props.github().apiUrl();
    this.github =
        gh.enabled()
            ? ClientRegistration.withRegistrationId(GITHUB)
                .clientId(gh.clientId())
                .clientSecret(gh.clientSecret())
                .clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_POST)
                .authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
                .redirectUri(redirectUri)
                // read:org: the person's teams and organizations, which the rules map
                .scope("read:user", "read:org")
                .authorizationUri(gh.webUrl() + "/login/oauth/authorize")
                .tokenUri(gh.webUrl() + "/login/oauth/access_token")
                .userInfoUri(api.replaceAll("/+$", "") + "/user")
                .userNameAttributeName("login")
                .clientName("GitHub")
                .build()
            : null;
  }

  /** The providers the sign-in page offers, in its order. */
  public List<Offered> offered() {
    List<Offered> offered = new ArrayList<>();
    if (sso.oidc().enabled()) {
      offered.add(new Offered(OIDC, sso.oidc().displayName()));
    }
    if (github != null) {
      offered.add(new Offered(GITHUB, "GitHub"));
    }
    return offered;
  }

  /**
   * The registration of {@code registrationId}; empty for a provider this deployment does not
   * offer. The OpenID Connect provider's is read from its issuer once, by one read that every
   * sign-in waiting for it shares, and kept; a failed read is kept {@link #FAILURE_KEPT} (sign-ins
   * meanwhile fail at once instead of each holding a thread), then tried again.
   */
  @Override
  public Mono<ClientRegistration> findByRegistrationId(String registrationId) {
    if (registrationId.equals(GITHUB)) {
      return Mono.justOrEmpty(github);
    }
    if (!registrationId.equals(OIDC) || !sso.oidc().enabled()) {
      return Mono.empty();
    }
    Mono<ClientRegistration> shared = discovery.get();
    if (shared == null) {
      discovery.compareAndSet(null, discover());
      shared = discovery.get();
    }
    return shared;
  }

  private Mono<ClientRegistration> discover() {
    GatewayProperties.Oidc oidc = sso.oidc();
    return Mono.fromCallable(
            () ->
                ClientRegistrations.fromIssuerLocation(oidc.issuer())
                    .registrationId(OIDC)
                    .clientId(oidc.clientId())
                    .clientSecret(oidc.clientSecret())
                    .redirectUri(redirectUri)
                    .scope(oidc.scopes())
                    .clientName(oidc.displayName())
                    .build())
        .subscribeOn(Schedulers.boundedElastic()) // the discovery read blocks
        .timeout(DISCOVERY_TIMEOUT)
        .cache(found -> KEPT, failed -> FAILURE_KEPT, () -> Duration.ZERO);
  }
}
