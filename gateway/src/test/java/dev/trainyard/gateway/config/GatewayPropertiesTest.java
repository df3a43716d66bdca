package dev.trainyard.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** Settings as operators write them: environment variables of API.md §6. */
class GatewayPropertiesTest {

  private static GatewayProperties bound(Map<String, Object> variables) {
    var environment =
        new SystemEnvironmentPropertySource(
            StandardEnvironment
                .SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, // read as Boot reads the real one
            variables);
    return new Binder(ConfigurationPropertySources.from(environment))
        .bindOrCreate("trainyard", GatewayProperties.class);
  }

  @Test
  void outboundAllowedHostsComeFromTheirEnvironmentVariable() {
    GatewayProperties props =
        bound(Map.of("TRAINYARD_OUTBOUND_ALLOWED_HOSTS", "hooks.internal,Metadata.Internal"));

    assertThat(props.outbound().allowedHosts())
        .containsExactly("hooks.internal", "Metadata.Internal");
  }

  @Test
  void singleSignOnAndSessionsComeFromTheVariablesTheChartSets() {
    GatewayProperties props =
        bound(
            Map.of(
                "TRAINYARD_SSO_OIDC_ISSUER", "https://id.example.com/realms/eng",
                "TRAINYARD_SSO_OIDC_CLIENT_ID", "trainyard",
                "TRAINYARD_SSO_OIDC_CLIENT_SECRET", "s3cret",
                "TRAINYARD_SSO_OIDC_ROLES", "eng=acme:operator,platform=acme:admin",
                "TRAINYARD_SSO_GITHUB_CLIENT_ID", "Iv1.abc",
                "TRAINYARD_SSO_REDIRECT_BASE_URL", "https://merge.example.com:443/",
                "TRAINYARD_DASHBOARD_SESSION_IDLE_TIMEOUT", "45m",
                "TRAINYARD_DASHBOARD_TOKEN_SIGN_IN", "false"));

    assertThat(props.sso().oidc().enabled()).isTrue();
    assertThat(props.sso().oidc().clientSecret()).isEqualTo("s3cret");
    assertThat(props.sso().oidc().roles())
        .containsExactly("eng=acme:operator", "platform=acme:admin");
    assertThat(props.sso().oidc().scopes()).containsExactly("openid", "profile", "email");
    assertThat(props.sso().github().enabled()).isTrue();
    assertThat(props.sso().github().webUrl()).isEqualTo("https://github.com");
    assertThat(props.sso().redirectBaseUrl()).isEqualTo("https://merge.example.com");
    assertThat(props.dashboard().sessionIdleTimeout()).hasMinutes(45);
    assertThat(props.dashboard().sessionLifetime()).hasHours(12);
    assertThat(props.dashboard().tokenSignIn()).isFalse();
  }

  @Test
  void nothingConfiguredOffersNoProviderAndKeepsTheTokenForm() {
    GatewayProperties props = bound(Map.of());

    assertThat(props.sso().oidc().enabled()).isFalse();
    assertThat(props.sso().github().enabled()).isFalse();
    assertThat(props.dashboard().tokenSignIn()).isTrue();
    assertThat(props.dashboard().sessionIdleTimeout()).hasHours(2);
  }

  @Test
  void aHalfConfiguredProviderStopsTheStartWithTheVariableToSet() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> bound(Map.of("TRAINYARD_SSO_OIDC_CLIENT_ID", "trainyard")))
        .rootCause()
        .hasMessageContaining("TRAINYARD_SSO_OIDC_ISSUER");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                bound(
                    Map.of(
                        "TRAINYARD_SSO_OIDC_ISSUER", "https://id.example.com",
                        "TRAINYARD_SSO_OIDC_CLIENT_ID", "trainyard",
                        "TRAINYARD_SSO_OIDC_SCOPES", "profile")))
        .rootCause()
        .hasMessageContaining("openid");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> bound(Map.of("TRAINYARD_DASHBOARD_SESSION_IDLE_TIMEOUT", "10s")))
        .rootCause()
        .hasMessageContaining("a minute or more");
  }

  @Test
  void thePreviousWebhookSecretSignsDeliveriesUntilItsEnd() {
    GatewayProperties.Github github =
        bound(
                Map.of(
                    "TRAINYARD_GITHUB_WEBHOOK_SECRET", "new",
                    "TRAINYARD_GITHUB_WEBHOOK_PREVIOUS_SECRET", "old",
                    "TRAINYARD_GITHUB_WEBHOOK_PREVIOUS_SECRET_UNTIL", "2026-12-01T00:00:00Z"))
            .github();
    assertThat(github.previousSecretAt(java.time.Instant.parse("2026-11-30T23:59:59Z")))
        .isEqualTo("old");
    assertThat(github.previousSecretAt(java.time.Instant.parse("2026-12-01T00:00:00Z"))).isNull();
    assertThat(
            bound(Map.of("TRAINYARD_GITHUB_WEBHOOK_PREVIOUS_SECRET", "old"))
                .github()
                .previousSecretAt(java.time.Instant.now()))
        .as("without an end, while it is set")
        .isEqualTo("old");
  }
}
