package dev.trainyard.idp;

import java.util.List;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.oauth2.core.oidc.endpoint.OidcParameterNames;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;

/**
 * A real OpenID Connect provider for the single sign-on tests: Spring Authorization Server as
 * Spring Boot configures it (test-identity-provider.properties registers the gateway as a
 * confidential client with a loopback redirect URI, any port), with a login form and four people
 * whose groups travel in the ID token's {@code groups} claim, as Okta, Entra ID or Keycloak put
 * them there.
 */
@SpringBootApplication
public class TestIdentityProvider {
  /** Everyone's password here: a test provider on loopback. */
  public static final String PASSWORD = "correct-horse";

  private static final String GROUP = "GROUP_";

  public static void main(String[] args) {
    // its own configuration name: this jar may sit on another application's classpath
    new SpringApplicationBuilder(TestIdentityProvider.class)
        .properties("spring.config.name=test-identity-provider")
        .run(args);
  }

  /** vera views, otto operates, ada administers, and nobody is in no group trainyard maps. */
  @Bean
  UserDetailsService people() {
    return new InMemoryUserDetailsManager(
        person("vera", "trainyard-viewers"),
        person("otto", "trainyard-operators", "trainyard-viewers"),
        person("ada", "trainyard-admins"),
        person("nobody", "catering"));
  }

  private static org.springframework.security.core.userdetails.UserDetails person(
      String name, String... groups) {
    return User.withUsername(name)
        .password("{noop}" + PASSWORD)
        .authorities(java.util.Arrays.stream(groups).map(g -> GROUP + g).toArray(String[]::new))
        .build();
  }

  /** The ID token names the person's groups and e-mail address. */
  @Bean
  OAuth2TokenCustomizer<JwtEncodingContext> groupsInTheIdToken() {
    return context -> {
      if (!OidcParameterNames.ID_TOKEN.equals(context.getTokenType().getValue())) {
        return;
      }
      List<String> groups =
          context.getPrincipal().getAuthorities().stream()
              .map(GrantedAuthority::getAuthority)
              .filter(a -> a.startsWith(GROUP))
              .map(a -> a.substring(GROUP.length()))
              .toList();
      String name = context.getPrincipal().getName();
      context
          .getClaims()
          .claim("groups", groups)
          .claim("email", name + "@example.test")
          .claim("preferred_username", name);
    };
  }
}
