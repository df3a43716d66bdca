package dev.trainyard.gateway.sso;

import dev.trainyard.gateway.auth.Memberships;
import dev.trainyard.gateway.auth.Organizations;
import dev.trainyard.gateway.auth.Person;
import dev.trainyard.gateway.auth.Role;
import dev.trainyard.gateway.config.GatewayProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.security.oauth2.client.authentication.OAuth2LoginAuthenticationToken;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.security.oauth2.core.user.OAuth2User;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Who signed in, as trainyard knows them: the person an identity provider vouched for, with the
 * organizations and roles the deployment's rules give what the provider says about them — an OpenID
 * Connect provider's groups claim, or the GitHub teams ({@code org/team-slug}) and organizations
 * ({@code org}) of the person. A rule naming an organization that does not exist gives nothing.
 */
@Component
public class People implements Memberships {
  /** GitHub's largest page; a person in more teams than this is mapped by their first 100. */
  static final int PER_PAGE = 100;

  private static final Duration GITHUB_TIMEOUT = Duration.ofSeconds(10);
  private static final Logger log = LoggerFactory.getLogger(People.class);
  private static final ParameterizedTypeReference<List<Map<String, Object>>> LIST =
      new ParameterizedTypeReference<>() {};

  private final Organizations organizations;
  private final WebClient web;
  private final RoleRules oidcRules;
  private final RoleRules githubRules;
  private final String groupsClaim;

  public People(GatewayProperties props, Organizations organizations) {
    this.organizations = organizations;
    this.web = WebClient.create();
    GatewayProperties.Sso sso = props.sso();
    this.oidcRules = RoleRules.parse("TRAINYARD_SSO_OIDC_ROLES", sso.oidc().roles(), false);
    this.githubRules = RoleRules.parse("TRAINYARD_SSO_GITHUB_ROLES", sso.github().roles(), true);
    this.groupsClaim = sso.oidc().groupsClaim();
  }

  @Override
  public Map<String, Role> of(String provider, List<String> keys) {
    return (provider.equals(IdentityProviders.GITHUB) ? githubRules : oidcRules).memberships(keys);
  }

  /**
   * The person {@code signedIn} names, with the organizations they may look at (maybe none: a rule
   * naming an organization that does not exist gives nothing). A GitHub user is named by their
   * numeric id, which a rename keeps and a new account never reuses.
   */
  public Mono<Person> of(String provider, OAuth2LoginAuthenticationToken signedIn) {
    OAuth2User user = signedIn.getPrincipal();
    Mono<List<String>> keys =
        user instanceof OidcUser oidc
            ? Mono.just(groups(oidc.getClaims().get(groupsClaim)))
            : githubKeys(signedIn);
    String id =
        provider
            + ":"
            + (user instanceof OidcUser oidc
                ? oidc.getSubject()
                : String.valueOf((Object) user.getAttribute("id")));
    String name = user instanceof OidcUser oidc ? nameOf(oidc) : user.getName();
    return keys.flatMap(
        held ->
            existing(of(provider, held))
                .map(memberships -> new Person(id, name, provider, held, memberships)));
  }

  private static String nameOf(OidcUser oidc) {
    for (String candidate :
        new String[] {oidc.getEmail(), oidc.getPreferredUsername(), oidc.getFullName()}) {
      if (candidate != null && !candidate.isBlank()) {
        return candidate;
      }
    }
    return oidc.getSubject();
  }

  /** A groups claim as providers write it: a list of names, or one name. */
  static List<String> groups(Object claim) {
    if (claim instanceof Collection<?> many) {
      return many.stream().map(String::valueOf).toList();
    }
    return claim == null ? List.of() : List.of(String.valueOf(claim));
  }

  private Mono<Map<String, Role>> existing(Map<String, Role> mapped) {
    return Flux.fromIterable(mapped.keySet())
        .filterWhen(
            org ->
                organizations
                    .exists(org)
                    .doOnNext(
                        exists -> {
                          if (!exists) {
                            log.warn(
                                "a sign-in rule names organization {}, which does not exist", org);
                          }
                        }))
        .collectMap(org -> org, mapped::get);
  }

  /** {@code org/team-slug} for each of the person's teams and {@code org} for each organization. */
  private Mono<List<String>> githubKeys(OAuth2LoginAuthenticationToken signedIn) {
    String api =
        signedIn.getClientRegistration().getProviderDetails().getUserInfoEndpoint().getUri();
    String base = api.substring(0, api.length() - "/user".length());
    String token = signedIn.getAccessToken().getTokenValue();
    Flux<String> teams =
        list(base + "/user/teams", token)
            .map(t -> login(t.get("organization")) + "/" + t.get("slug"));
    Flux<String> orgs = list(base + "/user/orgs", token).map(o -> String.valueOf(o.get("login")));
    return Flux.concat(teams, orgs).collectList().map(ArrayList::new);
  }

  private static String login(Object organization) {
    return organization instanceof Map<?, ?> org ? String.valueOf(org.get("login")) : "";
  }

  private Flux<Map<String, Object>> list(String url, String token) {
    return web.get()
        .uri(url + "?per_page=" + PER_PAGE)
        .header("Authorization", "Bearer " + token)
        .header("Accept", "application/vnd.github+json")
        .header("X-GitHub-Api-Version", "2022-11-28")
        .retrieve()
        .bodyToMono(LIST)
        .timeout(GITHUB_TIMEOUT)
        .flatMapIterable(list -> list);
  }
}
