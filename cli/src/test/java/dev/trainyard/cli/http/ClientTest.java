package dev.trainyard.cli.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The client against a real HTTP server on a local socket that answers as trainyard does when it is
 * overloaded or unavailable (429/503 with {@code Retry-After}), which the running service cannot be
 * made to do on demand.
 */
class ClientTest {
  private record Answer(int status, String retryAfter, String body) {}

  private record Seen(String path, String key, String token, String contentType, String body) {}

  private final Deque<Answer> answers = new ArrayDeque<>();
  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private final List<Exchange> observed = new CopyOnWriteArrayList<>();
  private final TestPauses pauses = new TestPauses();
  @RegisterExtension final LocalServer server = new LocalServer(this::answer);

  private synchronized void answer(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    seen.add(
        new Seen(
            exchange.getRequestURI().getPath(),
            exchange.getRequestHeaders().getFirst("Idempotency-Key"),
            exchange.getRequestHeaders().getFirst("x-api-token"),
            exchange.getRequestHeaders().getFirst("content-type"),
            body));
    Answer answer = answers.isEmpty() ? new Answer(200, null, "{}") : answers.poll();
    if (answer.retryAfter() != null) {
      exchange.getResponseHeaders().add("Retry-After", answer.retryAfter());
    }
    byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(answer.status(), bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  private Client client(String url, Duration budget) {
    return new Client(
        JsonMapper.builder().build(),
        new Settings(URI.create(url), "ty_token", Optional.empty()),
        new Retrying(budget),
        pauses,
        observed::add,
        "test");
  }

  private Client client() {
    return client(server.url(), Duration.ofMinutes(2));
  }

  private static ObjectNode body() {
    return JsonNodeFactory.instance.objectNode().put("targetBranch", "main");
  }

  @Test
  void aMutationRetriesA503AfterItsRetryAfterUnderTheSameKey() {
    answers.add(new Answer(503, "3", "the store is unreachable"));
    answers.add(new Answer(429, "1", "too many requests"));
    answers.add(new Answer(200, null, "{\"state\":\"paused\"}"));

    assertThat(client().change("/v1/updateQueue", body()).get("state").asString())
        .isEqualTo("paused");

    assertThat(seen).hasSize(3);
    assertThat(seen).extracting(Seen::key).doesNotContainNull().containsOnly(seen.get(0).key());
    assertThat(seen)
        .allSatisfy(
            s -> {
              assertThat(s.path()).isEqualTo("/v1/updateQueue");
              assertThat(s.token()).isEqualTo("ty_token");
              assertThat(s.contentType()).isEqualTo("application/json");
              assertThat(s.body()).isEqualTo("{\"targetBranch\":\"main\"}");
            });
    assertThat(pauses.taken()).containsExactly(Duration.ofSeconds(3), Duration.ofSeconds(1));
    assertThat(observed).extracting(Exchange::status).containsExactly(503, 429, 200);
  }

  @Test
  void aKeyStillBeingAnsweredIsAskedAgainButOnlyUnderAKey() {
    String still = "a request with this Idempotency-Key is still being answered; retry in a moment";
    answers.add(new Answer(409, null, still));
    answers.add(new Answer(200, null, "{}"));
    client().change("/v1/submitPullRequest", body());
    assertThat(seen).hasSize(2);

    answers.add(new Answer(409, null, still));
    assertThatThrownBy(() -> client().read("/v1/getQueue", body()))
        .isInstanceOfSatisfying(Refused.class, r -> assertThat(r.exit()).isEqualTo(Exit.REFUSED));
  }

  @Test
  void eachMutationHasAKeyOfItsOwnAndAReadHasNone() {
    client().change("/v1/cancelPullRequest", body());
    client().change("/v1/cancelPullRequest", body());
    client().read("/v1/getQueue", body());

    assertThat(seen.get(0).key()).startsWith("trainyard-cli-").isNotEqualTo(seen.get(1).key());
    assertThat(seen.get(2).key()).isNull();
  }

  @Test
  void aDefinitiveRefusalIsNotRetried() {
    answers.add(new Answer(401, null, "unknown API token"));

    assertThatThrownBy(() -> client().read("/v1/getQueue", body()))
        .isInstanceOfSatisfying(
            Refused.class, r -> assertThat(r.exit()).isEqualTo(Exit.NOT_ALLOWED))
        .hasMessage(
            "the token was refused (check --token, TRAINYARD_TOKEN or the config file) (HTTP 401):"
                + " unknown API token");
    assertThat(seen).hasSize(1);
    assertThat(pauses.taken()).isEmpty();
  }

  @Test
  void aServerThatStaysBusyIsGivenUpWithinTheBudget() {
    for (int i = 0; i < 10; i++) {
      answers.add(new Answer(503, "20", "overloaded"));
    }

    assertThatThrownBy(() -> client().read("/v1/getQueue", body()))
        .isInstanceOfSatisfying(
            Refused.class, r -> assertThat(r.exit()).isEqualTo(Exit.UNAVAILABLE))
        .hasMessageStartingWith("the server answered 503 (overloaded); gave up after 7 attempts");
    assertThat(pauses.taken()).hasSize(6).containsOnly(Duration.ofSeconds(20));
  }

  @Test
  void noServerAtAllIsRetriedWithBackoffThenGivenUp() throws IOException {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }

    assertThatThrownBy(
            () ->
                client("http://127.0.0.1:" + closed, Duration.ofSeconds(20))
                    .read("/v1/getQueue", body()))
        .isInstanceOfSatisfying(
            Refused.class, r -> assertThat(r.exit()).isEqualTo(Exit.UNAVAILABLE))
        .hasMessageContaining("could not reach http://127.0.0.1:" + closed);
    assertThat(pauses.taken())
        .containsExactly(
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            Duration.ofSeconds(4),
            Duration.ofSeconds(8));
  }

  @Test
  void a200ThatIsNotJsonIsNoAnswer() {
    answers.add(new Answer(200, null, "<html>a proxy's page</html>"));

    assertThatThrownBy(() -> client().read("/v1/getQueue", body()))
        .isInstanceOfSatisfying(
            Refused.class, r -> assertThat(r.exit()).isEqualTo(Exit.UNAVAILABLE))
        .hasMessageContaining("not JSON");
  }
}
