package dev.trainyard.worker.scm.github;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trainyard.common.github.GithubClient;
import dev.trainyard.common.github.GithubException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The GitHub App's client against the GitHub simulator (every exchange checked against GitHub's
 * REST description): App JWTs from the PKCS#1 key GitHub hands out, installation tokens fetched
 * once and renewed before they expire or when revoked, and GitHub's rate limits waited out (a
 * secondary limit's Retry-After, a spent primary limit until its reset) but never past a minute.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GithubClientTest {
  private static final long INSTALLATION = 77;
  private OpenApiContract contract;
  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-11-24T12:00:00Z"));
  private final InstantSource clock = () -> now.get();
  private final List<Duration> slept = new ArrayList<>();
  private GithubSimulator github;
  private GithubClient client;
  private String main;

  @BeforeAll
  void description() throws Exception {
    contract = OpenApiContract.github();
  }

  @BeforeEach
  void start() throws Exception {
    slept.clear();
    now.set(Instant.parse("2026-11-24T12:00:00Z"));
    github = new GithubSimulator(contract, clock);
    main =
        github
            .install(INSTALLATION, "acme", "rocket")
            .push("main", java.util.Map.of("README", "rocket"), "first");
    client =
        GithubClient.create(
            github.api(),
            Long.toString(GithubSimulator.APP_ID),
            github.privateKeyPem(),
            clock,
            d -> {
              slept.add(d);
              now.set(now.get().plus(d));
            });
  }

  @AfterEach
  void stop() {
    assertThat(github.problems()).as("breaches of GitHub's REST description").isEmpty();
    github.close();
  }

  @Test
  void anInstallationTokenIsFetchedOnceAndRenewedBeforeItExpires() {
    assertThat(mainHead().status()).isEqualTo(200);
    assertThat(mainHead().body().path("object").path("sha").asString()).isEqualTo(main);
    assertThat(tokenRequests()).isEqualTo(1);

    now.set(now.get().plus(Duration.ofMinutes(56))); // 4 minutes left: within the margin
    assertThat(mainHead().status()).isEqualTo(200);
    assertThat(tokenRequests()).isEqualTo(2);
  }

  /** Before, one token of the whole installation served every repository it covers. */
  @Test
  void eachRepositorysCallsUseATokenLimitedToIt() {
    github.install(INSTALLATION, "acme", "probe").push("main", java.util.Map.of("a", "b"), "c");

    assertThat(mainHead().status()).isEqualTo(200);
    assertThat(
            client.as(INSTALLATION, "GET", "/repos/acme/probe/git/ref/heads/main", null).status())
        .isEqualTo(200);

    assertThat(github.issuedScopes()).containsExactly(Set.of("rocket"), Set.of("probe"));
  }

  /**
   * A token limited to a repository, fetched before the repository was renamed, reaches it under
   * its new name through GitHub's redirect: GitHub limits a token to the repositories its names
   * denote at issuance, not to the names.
   */
  @Test
  void aRepositoryRenamedAfterItsTokenWasFetchedIsReachedThroughTheRedirect() {
    assertThat(mainHead().status()).isEqualTo(200);
    github.repository("acme", "rocket").rename("acme/rocket-renamed");

    assertThat(mainHead().status()).isEqualTo(200);
    assertThat(mainHead().body().path("object").path("sha").asString()).isEqualTo(main);
    // a write too, on an operation whose description lists no 404 (GitHub repeats it at the new
    // name with a 307); the test's check of every answer fails on one
    assertThat(
            client
                .as(
                    INSTALLATION,
                    "POST",
                    "/repos/acme/rocket/check-runs",
                    java.util.Map.of("name", "trainyard", "head_sha", main))
                .status())
        .isEqualTo(201);
    assertThat(tokenRequests()).isEqualTo(1);
  }

  /**
   * A URL an answer names (a next page, a redirect, GraphQL beside the API) on another scheme, host
   * or port is not called: no request, so no token or JWT, reaches it.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {"http://127.0.0.1:%d/repos/acme/rocket", "http://localhost:%d/repos/acme/rocket"})
  void theCredentialsGoToGithubsApiAlone(String elsewhere) throws Exception {
    List<String> received = new java.util.concurrent.CopyOnWriteArrayList<>();
    com.sun.net.httpserver.HttpServer other =
        com.sun.net.httpserver.HttpServer.create(
            new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
    other.createContext(
        "/",
        exchange -> {
          received.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    other.start();
    try {
      String url = elsewhere.formatted(other.getAddress().getPort());

      assertThatThrownBy(() -> client.as(INSTALLATION, "GET", url, null))
          .isInstanceOf(GithubException.class)
          .hasMessageContaining("the App's credentials go to the API alone");
      assertThatThrownBy(() -> client.asApp("GET", url, null)).isInstanceOf(GithubException.class);
      assertThat(received).isEmpty();
      // the API's own absolute URLs are followed, as GitHub's Link headers name them
      assertThat(client.as(INSTALLATION, "GET", github.api() + "/repos/acme/rocket", null).status())
          .isEqualTo(200);
    } finally {
      other.stop(0);
    }
  }

  @Test
  void aRevokedTokenIsReplacedOnce() {
    assertThat(mainHead().status()).isEqualTo(200);
    github.uninstall(INSTALLATION);
    github.reinstall(INSTALLATION); // the old token is gone
    assertThat(mainHead().status()).isEqualTo(200);
    assertThat(tokenRequests()).isEqualTo(2);
  }

  @Test
  void aRemovedInstallationIsAnErrorThatSaysSo() {
    github.uninstall(INSTALLATION);
    assertThatThrownBy(this::mainHead)
        .isInstanceOf(GithubException.class)
        .hasMessageContaining("no token for installation " + INSTALLATION)
        .hasMessageContaining("404");
  }

  @Test
  void theAppFindsTheInstallationOfARepository() {
    GithubClient.Answer answer = client.asApp("GET", "/repos/acme/rocket/installation", null);
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.body().path("id").asLong()).isEqualTo(INSTALLATION);
    assertThat(client.asApp("GET", "/repos/acme/other/installation", null).status()).isEqualTo(404);
  }

  @Test
  void aSecondaryLimitIsWaitedOutForItsRetryAfter() {
    github.secondaryLimit(7);
    assertThat(mainHead().status()).isEqualTo(200);
    assertThat(slept).containsExactly(Duration.ofSeconds(7));
  }

  /**
   * A secondary limit without {@code Retry-After} was read as a missing permission (a plain 403).
   * Now the installation pauses for a minute, doubling while GitHub goes on limiting it, and no
   * call reaches GitHub in the pause; no thread sleeps through it.
   */
  @Test
  void aSecondaryLimitWithoutRetryAfterPausesTheInstallationWithoutWaiting() {
    github.secondaryLimitWithoutRetryAfter();
    assertThatThrownBy(this::mainHead)
        .isInstanceOf(GithubException.class)
        .hasMessageContaining("secondary rate limit")
        .hasMessageContaining("60 s");
    long calls = github.calls().size();

    now.set(now.get().plusSeconds(59));
    assertThatThrownBy(this::mainHead).hasMessageContaining("pauses calls");
    assertThat(github.calls()).as("nothing reaches GitHub in the pause").hasSize((int) calls);

    now.set(now.get().plusSeconds(2));
    github.secondaryLimitWithoutRetryAfter(); // limited again right after the pause
    assertThatThrownBy(this::mainHead).hasMessageContaining("120 s");
    now.set(now.get().plusSeconds(121));
    assertThat(mainHead().status()).isEqualTo(200);
    assertThat(slept).as("no caller's thread waited").isEmpty();
  }

  @Test
  void aSpentPrimaryLimitIsWaitedOutUntilItsReset() {
    github.primaryLimit(now.get().plusSeconds(20));
    assertThat(mainHead().status()).isEqualTo(200);
    assertThat(slept).containsExactly(Duration.ofSeconds(21));
  }

  @Test
  void aLimitLongerThanAMinuteFailsTheCallForALaterRetry() {
    github.primaryLimit(now.get().plus(Duration.ofMinutes(30)));
    assertThatThrownBy(this::mainHead)
        .isInstanceOf(GithubException.class)
        .hasMessageContaining("rate limit");
    assertThat(slept).isEmpty();
  }

  /**
   * Before, a spent primary limit longer than a minute failed only the call that met it: every
   * other call of the installation went on reaching GitHub until the reset, which GitHub may answer
   * by banning the integration. Now none does, and the limit is counted.
   */
  @Test
  void aSpentPrimaryLimitStopsEveryCallOfTheInstallationUntilItsReset() {
    io.micrometer.core.instrument.simple.SimpleMeterRegistry meters =
        new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
    client.meteredBy(
        new dev.trainyard.common.telemetry.ScmCalls(
            meters, java.time.Clock.fixed(now.get(), java.time.ZoneOffset.UTC)));
    assertThat(mainHead().status()).isEqualTo(200);
    github.primaryLimit(now.get().plus(Duration.ofMinutes(30)));
    assertThatThrownBy(this::mainHead).hasMessageContaining("rate limit holds");
    long calls = github.calls().size();

    now.set(now.get().plus(Duration.ofMinutes(29)));
    assertThatThrownBy(this::mainHead).hasMessageContaining("pauses calls");
    assertThat(github.calls()).as("nothing reaches GitHub before the reset").hasSize((int) calls);

    now.set(now.get().plus(Duration.ofMinutes(2)));
    assertThat(mainHead().status()).isEqualTo(200);
    assertThat(meters.counter("trainyard.github.rate.limited", "kind", "primary").count())
        .isEqualTo(1.0);
    assertThat(slept).isEmpty();
  }

  private GithubClient.Answer mainHead() {
    return client.as(INSTALLATION, "GET", "/repos/acme/rocket/git/ref/heads/main", null);
  }

  private long tokenRequests() {
    return github.calls().stream().filter(c -> c.endsWith("/access_tokens")).count();
  }
}
