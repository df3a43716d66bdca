package dev.trainyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import dev.trainyard.cli.http.Exchange;
import dev.trainyard.cli.http.Exit;
import dev.trainyard.cli.http.LocalServer;
import dev.trainyard.cli.http.TestPauses;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The commands' own loops — wait's polling and timeout, the listings' pages — against a local HTTP
 * server scripted per path, where the running service cannot be made to answer these sequences on
 * demand (CommandLineIT runs every command against the real one).
 */
class CommandsTest {
  @TempDir Path home;
  private final Map<String, Function<JsonNode, String>> script = new ConcurrentHashMap<>();
  private final List<JsonNode> received = new CopyOnWriteArrayList<>();
  private final List<String> paths = new CopyOnWriteArrayList<>();
  private final TestPauses pauses = new TestPauses();
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  @RegisterExtension final LocalServer server = new LocalServer(this::answer);

  private void answer(HttpExchange exchange) throws IOException {
    JsonNode body = TrainyardCli.MAPPER.readTree(exchange.getRequestBody().readAllBytes());
    received.add(body);
    paths.add(exchange.getRequestURI().getPath());
    byte[] answer =
        script
            .getOrDefault(exchange.getRequestURI().getPath(), any -> "{}")
            .apply(body)
            .getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(200, answer.length);
    exchange.getResponseBody().write(answer);
    exchange.close();
  }

  private int run(String... args) {
    Context context =
        new Context(
            Map.of("HOME", home.toString(), "TRAINYARD_TOKEN", "t", "TRAINYARD_URL", server.url()),
            new PrintWriter(out),
            new PrintWriter(err),
            pauses,
            Exchange.Observer.NONE);
    return TrainyardCli.run(args, context);
  }

  private static String pr(String state, Integer position) {
    return "{\"prNumber\":7,\"state\":\"" + state + "\",\"queuePosition\":" + position + "}";
  }

  @Test
  void waitPrintsEachMoveAndExitsZeroOnceMerged() {
    List<String> states =
        List.of(pr("pending", 2), pr("pending", 2), pr("testing", 1), pr("merged", null));
    int[] look = {0};
    script.put(
        "/v1/getSubmittedPullRequest", body -> states.get(Math.min(look[0]++, states.size() - 1)));

    assertThat(run("wait", "--repo", "a/b", "--pr", "7", "--interval", "5s")).isEqualTo(Exit.OK);

    assertThat(err.toString().lines())
        .containsExactly("#7 pending (position 2)", "#7 testing (position 1)", "#7 merged");
    assertThat(out.toString().strip()).isEqualTo("#7 merged");
    assertThat(pauses.taken()).containsExactly(secs(5), secs(5), secs(5));
  }

  @Test
  void statusSaysWhyAPrWaitsAndItsPredictedRisk() {
    script.put(
        "/v1/getSubmittedPullRequest",
        body ->
            "{\"prNumber\":7,\"state\":\"pending\",\"queuePosition\":3,\"predictedRisk\":0.4,"
                + "\"waitingFor\":\"runs_ahead\",\"waitingReason\":\"1 pull request ahead of it"
                + " is tested first (#6).\"}");

    assertThat(run("status", "--repo", "a/b", "--pr", "7")).isZero();

    assertThat(out.toString().strip())
        .isEqualTo(
            "#7 pending (position 3, predicted risk 0.4, 1 pull request ahead of it is tested"
                + " first (#6).)");
  }

  @Test
  void waitExitsOneWhenCancelled() {
    script.put("/v1/getSubmittedPullRequest", body -> pr("cancelled", null));

    assertThat(run("wait", "--repo", "a/b", "--pr", "7", "--json")).isEqualTo(Exit.NOT_MERGED);
    assertThat(TrainyardCli.MAPPER.readTree(out.toString()).get("state").asString())
        .isEqualTo("cancelled");
  }

  @Test
  void waitGivesUpAtItsTimeoutNotAnIntervalLater() {
    script.put("/v1/getSubmittedPullRequest", body -> pr("testing", 1));

    assertThat(run("wait", "--repo", "a/b", "--pr", "7", "--interval", "4s", "--timeout", "10s"))
        .isEqualTo(Exit.UNAVAILABLE);

    assertThat(pauses.taken()).containsExactly(secs(4), secs(4), secs(2));
    assertThat(err.toString()).endsWith("trainyard: #7 is still testing after 10 s\n");
  }

  @Test
  void theFlakyListingAsksEveryPageWithOneSizeAndStopsAtTheLimit() {
    script.put(
        "/v1/flaky-tests/list-unhealthy-tests",
        body -> {
          String token = body.path("page_query").path("page_token").asString();
          int from = token.isEmpty() ? 0 : Integer.parseInt(token);
          StringBuilder tests = new StringBuilder();
          for (int i = from; i < from + 100; i++) {
            tests.append(i == from ? "" : ",").append("{\"name\":\"t").append(i).append("\"}");
          }
          return "{\"tests\":["
              + tests
              + "],\"page\":{\"total_rows\":1000,\"next_page_token\":\""
              + (from + 100)
              + "\"}}";
        });

    assertThat(run("flaky", "list", "--repo", "acme/b", "--limit", "150", "--json")).isZero();

    JsonNode listed = TrainyardCli.MAPPER.readTree(out.toString());
    assertThat(listed.get("tests")).hasSize(150);
    assertThat(listed.get("tests").get(149).get("name").asString()).isEqualTo("t149");
    assertThat(listed.get("total_rows").asLong()).isEqualTo(1000);
    assertThat(received)
        .hasSize(2)
        .allSatisfy(r -> assertThat(r.path("page_query").path("page_size").asInt()).isEqualTo(100))
        .allSatisfy(r -> assertThat(r.path("org_url_slug").asString()).isEqualTo("acme"));
  }

  @Test
  @Timeout(30) // a walk that never ends fails here instead of hanging the build
  void aListingWhosePagesAddNothingEnds() {
    script.put("/v1/listPullRequests", body -> "{\"pullRequests\":[],\"nextCursor\":\"again\"}");

    assertThat(run("list", "--repo", "a/b")).isZero();
    assertThat(out.toString().strip()).isEqualTo("no pull requests");
    assertThat(received).hasSize(1);
  }

  @Test
  void aTokenBoundForAnotherMachineOverPlainHttpIsWarnedOf() {
    Context context =
        new Context(
            Map.of("HOME", home.toString(), "TRAINYARD_TOKEN", "t"),
            new PrintWriter(out),
            new PrintWriter(err),
            pauses,
            Exchange.Observer.NONE);
    String[] args = {
      "status", "--repo", "a/b", "--pr", "1", "--url", "http://192.0.2.1:1", "--retry-for", "0s"
    };

    assertThat(TrainyardCli.run(args, context)).isEqualTo(Exit.UNAVAILABLE);
    assertThat(err.toString().lines().findFirst())
        .hasValue(
            "trainyard: warning: the token goes to http://192.0.2.1:1 unencrypted; use https");
  }

  @Test
  void submitSendsOnlyWhatWasGiven() {
    script.put("/v1/getSubmittedPullRequest", body -> pr("pending", 1));

    assertThat(run("submit", "--repo", "a/b", "--pr", "7")).isZero();
    assertThat(run("submit", "--repo", "a/b", "--pr", "7", "--batch", "--priority", "urgent"))
        .isZero();
    assertThat(run("submit", "--repo", "a/b", "--pr", "7", "--no-batch", "--priority", "12"))
        .isZero();
    assertThat(run("submit", "--repo", "a/b", "--pr", "7", "--stack")).isZero();
    assertThat(run("submit", "--repo", "a/b", "--pr", "7", "--predicted-risk", "0.25")).isZero();

    List<JsonNode> submits =
        java.util.stream.IntStream.range(0, paths.size())
            .filter(i -> paths.get(i).equals("/v1/submitPullRequest"))
            .mapToObj(received::get)
            .toList();
    assertThat(submits).hasSize(5);
    assertThat(submits.get(0).has("noBatch")).isFalse();
    assertThat(submits.get(0).has("predictedRisk")).isFalse();
    assertThat(submits.get(4).get("predictedRisk").asDouble()).isEqualTo(0.25);
    assertThat(submits.get(0).has("priority")).isFalse();
    assertThat(submits.get(0).has("stack")).isFalse();
    assertThat(submits.get(3).get("stack").asBoolean()).isTrue();
    JsonNode batched = submits.get(1);
    assertThat(batched.get("noBatch").asBoolean()).isFalse();
    assertThat(batched.get("priority").asString()).isEqualTo("urgent");
    JsonNode alone = submits.get(2);
    assertThat(alone.get("noBatch").asBoolean()).isTrue();
    assertThat(alone.get("priority").isInt()).isTrue();
  }

  private static Duration secs(long seconds) {
    return Duration.ofSeconds(seconds);
  }
}
