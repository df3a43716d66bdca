package dev.trainyard.flaky.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.flaky.FlakyTestsHeaders;
import dev.trainyard.common.flaky.RequestProof;
import dev.trainyard.flaky.store.FlakyCollections;
import dev.trainyard.flaky.store.WireStore;
import java.net.URI;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.HandlerStrategies;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * The service's side of the proof over its router and store: a proof is spent on first use by every
 * replica, and no spelling of a flaky-tests path reaches a handler without one.
 */
class GatewayProofTest {
  private static final String KEY = "0123456789abcdef0123456789abcdef";
  private static final String LIST = "/v1/flaky-tests/list-unhealthy-tests";

  private final WireStore store = new WireStore();
  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-11-22T10:00:00Z"));
  private final RequestProof gateway = new RequestProof(KEY, now::get);
  private final WebTestClient replica = replica();

  @AfterEach
  void closeStore() {
    store.close();
  }

  @Test
  void aProofIsSpentOnItsFirstUseOnEveryReplica() {
    String proof = gateway.sign(new RequestProof.Request("acme", "POST", LIST));
    WebTestClient another = replica();

    assertThat(call(replica, LIST, "acme", proof).getResponseBody()).isEqualTo("acme");
    assertRefused(call(replica, LIST, "acme", proof), "the gateway proof was used before");
    assertRefused(call(another, LIST, "acme", proof), "the gateway proof was used before");
    String next = gateway.sign(new RequestProof.Request("acme", "POST", LIST));
    assertThat(call(another, LIST, "acme", next).getStatus().value()).isEqualTo(200);
  }

  @Test
  void aProofCoversTheQueryAndIsNotSpentByARequestItDoesNotMatch() {
    String proof = gateway.sign(new RequestProof.Request("acme", "POST", LIST));

    assertRefused(
        call(replica, LIST + "?org=other", "acme", proof),
        "the gateway proof does not match this request");
    assertRefused(call(replica, LIST, "other", proof), "the gateway proof does not match");
    assertThat(call(replica, LIST, "acme", proof).getStatus().value()).isEqualTo(200);
  }

  @Test
  void aStaleProofIsRefusedWithoutTouchingTheStore() {
    String proof = gateway.sign(new RequestProof.Request("acme", "POST", LIST));
    now.set(now.get().plus(RequestProof.WINDOW).plusMillis(1));

    assertRefused(call(replica, LIST, "acme", proof), "more than 5 minutes");
    assertThat(store.mongo().getCollection(FlakyCollections.SEEN_NONCES).countDocuments()).isZero();
  }

  /** The router matches decoded segments without {@code ;} parameters: so must the filter. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        LIST,
        "/v1/flaky%2Dtests/list-unhealthy-tests",
        "/v1/flaky-tests;x=1/list-unhealthy-tests",
        "/v1/flaky-tests/list-unhealthy-tests;x=1",
        "/v1/flaky-tests/list%2Dunhealthy-tests",
        "/v1/flaky-tests//list-unhealthy-tests"
      })
  void noSpellingOfAFlakyTestsPathReachesAHandlerWithoutAProof(String path) {
    assertRefused(
        call(replica, path, "acme", null),
        "the request carries no gateway proof of its organization");
  }

  /** What the filter lets pass as not under the prefix, the router does not serve either. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "//v1/flaky-tests/list-unhealthy-tests",
        "/v1//flaky-tests/list-unhealthy-tests",
        "/v1/./flaky-tests/list-unhealthy-tests",
        "/v1/x/../flaky-tests/list-unhealthy-tests",
        "/V1/flaky-tests/list-unhealthy-tests"
      })
  void spellingsOutsideThePrefixAreNotRouted(String path) {
    assertThat(call(replica, path, "acme", null).getStatus().value()).isEqualTo(404);
  }

  @Test
  void pathsOutsideTheFlakyTestsApiNeedNoProof() {
    assertThat(
            replica
                .get()
                .uri("/actuator/health")
                .exchange()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody())
        .isEqualTo("up");
  }

  /** One replica of the service: its own filter and nonce record over the shared store. */
  private WebTestClient replica() {
    RouterFunction<ServerResponse> routes =
        RouterFunctions.route()
            .POST(LIST, request -> ServerResponse.ok().bodyValue(Caller.org(request)))
            .GET("/actuator/health", request -> ServerResponse.ok().bodyValue("up"))
            .build();
    return WebTestClient.bindToRouterFunction(routes)
        .handlerStrategies(HandlerStrategies.builder().exceptionHandler(new ErrorHandler()).build())
        .webFilter(new GatewayProof(gateway, new SeenNonces(store.mongo(), now::get)))
        .build();
  }

  private static EntityExchangeResult<String> call(
      WebTestClient client, String path, String org, String proof) {
    return client
        .post()
        .uri(URI.create(path))
        .header(FlakyTestsHeaders.ORG, org)
        .headers(
            headers -> {
              if (proof != null) {
                headers.set(FlakyTestsHeaders.PROOF, proof);
              }
            })
        .exchange()
        .expectBody(String.class)
        .returnResult();
  }

  private static void assertRefused(EntityExchangeResult<String> result, String reason) {
    assertThat(result.getStatus().value()).isEqualTo(401);
    assertThat(result.getResponseHeaders().getContentType())
        .hasToString("text/plain;charset=UTF-8");
    assertThat(result.getResponseBody())
        .contains(reason)
        .endsWith(": call the flaky-tests API through the gateway\n");
  }
}
