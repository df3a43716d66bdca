package dev.trainyard.gateway.sso;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.gateway.auth.TokenHash;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;

/**
 * A pending sign-in comes back from the store as it went in: Spring's OpenID Connect manager checks
 * the nonce only when the request still carries it, and redeems with PKCE only when the verifier is
 * there — a field lost on the way would switch a check off silently.
 */
class PendingSignInsTest {

  @Test
  void theRequestComesBackWithItsNoncePkceVerifierAndRegistration() {
    OAuth2AuthorizationRequest sent =
        OAuth2AuthorizationRequest.authorizationCode()
            .authorizationUri("https://id.example.com/oauth2/authorize")
            .clientId("trainyard")
            .redirectUri("https://merge.example.com/ui/sign-in/oidc/callback")
            .scopes(Set.of("openid", "email"))
            .state("state-123=")
            .additionalParameters(
                Map.of(
                    "nonce", "hashed-nonce",
                    "code_challenge", "challenge",
                    "code_challenge_method", "S256"))
            .attributes(
                Map.of(
                    "registration_id", "oidc", "nonce", "raw-nonce", "code_verifier", "verifier"))
            .authorizationRequestUri("https://id.example.com/oauth2/authorize?state=state-123%3D")
            .build();
    Instant expires = Instant.parse("2026-11-29T10:10:00Z");

    Document stored = PendingSignIns.document(sent, "/ui/queues/x", expires);
    PendingSignIns.Pending back = PendingSignIns.pending(stored);

    assertThat(stored.getString("_id")).isEqualTo(TokenHash.sha256("state-123="));
    assertThat(back.next()).isEqualTo("/ui/queues/x");
    OAuth2AuthorizationRequest request = back.request();
    assertThat(request.getState()).isEqualTo("state-123=");
    assertThat(request.getRedirectUri()).isEqualTo(sent.getRedirectUri());
    assertThat(request.getScopes()).containsExactlyInAnyOrder("openid", "email");
    assertThat(request.getAttributes()).isEqualTo(sent.getAttributes());
    assertThat(request.getAdditionalParameters()).isEqualTo(sent.getAdditionalParameters());
    assertThat(request.getAuthorizationRequestUri()).isEqualTo(sent.getAuthorizationRequestUri());
    assertThat(request.getClientId()).isEqualTo("trainyard");
  }
}
