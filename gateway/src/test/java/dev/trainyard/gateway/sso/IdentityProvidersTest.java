package dev.trainyard.gateway.sso;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.trainyard.gateway.config.GatewayProperties;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

/**
 * The OpenID Connect provider's discovery document is read once for every sign-in waiting on it,
 * and a failed read answers the sign-ins that follow without another read (each would otherwise
 * hold a blocking thread while the provider is away).
 */
class IdentityProvidersTest {
  private HttpServer issuer;
  private final AtomicInteger reads = new AtomicInteger();

  @BeforeEach
  void aProviderThatFails() throws IOException {
    issuer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    issuer.createContext(
        "/",
        exchange -> {
          reads.incrementAndGet();
          exchange.sendResponseHeaders(500, -1);
          exchange.close();
        });
    issuer.start();
  }

  @AfterEach
  void stop() {
    issuer.stop(0);
  }

  private IdentityProviders providers() {
    String url = "http://127.0.0.1:" + issuer.getAddress().getPort();
    GatewayProperties.Sso sso =
        new GatewayProperties.Sso(
            new GatewayProperties.Oidc(url, "trainyard", "secret", null, null, null, null),
            null,
            null);
    return new IdentityProviders(
        new GatewayProperties(
            null, null, null, null, null, null, null, null, null, null, null, null, sso));
  }

  @Test
  void aFailedDiscoveryIsSharedAndKeptInsteadOfReadAgainBySignIn() {
    IdentityProviders providers = providers();

    StepVerifier.create(providers.findByRegistrationId("oidc"))
        .expectError()
        .verify(Duration.ofSeconds(30));
    int afterFirst = reads.get();
    StepVerifier.create(providers.findByRegistrationId("oidc"))
        .expectError()
        .verify(Duration.ofSeconds(30));

    assertThat(afterFirst).as("the first sign-in read the provider").isPositive();
    assertThat(reads.get()).as("the second got the kept failure").isEqualTo(afterFirst);
  }

  @Test
  void aProviderThatIsNotConfiguredIsNone() {
    StepVerifier.create(providers().findByRegistrationId("github")).verifyComplete();
    StepVerifier.create(providers().findByRegistrationId("okta")).verifyComplete();
  }
}
