package dev.trainyard.standalone.support;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.Api.prBody;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import tools.jackson.databind.JsonNode;

/** The client steps of the merge-queue scenarios, over HTTP. */
public final class QueueSteps {
  public static final Duration PATIENCE = Duration.ofSeconds(90);

  private QueueSteps() {}

  public static void create(Api api, String name, int concurrency) {
    assertThat(api.post("/v1/createQueue", body(name, "\"concurrency\":" + concurrency)).status())
        .isEqualTo(200);
  }

  /**
   * Creates the queue as a client of a cluster that may be failing over does (API.md): a 503, a
   * dropped connection, or a 409 saying the key's first request is still being answered is retried
   * under the same {@code Idempotency-Key} until a definitive answer, which must be a 200.
   */
  public static void createRetrying(Api api, String name, int concurrency) {
    String key = "create-" + name;
    String body = body(name, "\"concurrency\":" + concurrency);
    Awaitility.await("a definitive answer to createQueue " + name)
        .atMost(PATIENCE)
        .pollInterval(Duration.ofMillis(500))
        .until(() -> definitive(api, "/v1/createQueue", body, key));
  }

  private static boolean definitive(Api api, String path, String body, String key) {
    Api.Response answer;
    try {
      answer =
          api.send(
              api.request(path)
                  .header("Idempotency-Key", key)
                  .POST(HttpRequest.BodyPublishers.ofString(body)));
    } catch (IllegalStateException dropped) {
      return false;
    }
    boolean stillAnswered =
        answer.status() == 409 && answer.body().contains("still being answered");
    if (answer.status() == 503 || stillAnswered) {
      return false;
    }
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    return true;
  }

  public static void submit(Api api, String name, long pr) {
    assertThat(api.post("/v1/submitPullRequest", prBody(name, pr)).status()).isEqualTo(200);
  }

  /**
   * Opens PRs 1..{@code prs} on {@code git} ("Add file n"), submits each, and waits until every one
   * merged.
   */
  public static void landPrs(Api api, GitHost git, String name, int prs) throws IOException {
    for (long pr = 1; pr <= prs; pr++) {
      git.openPr(pr, "Add file " + pr, "dev" + pr, "f" + pr + ".txt", pr + "\n");
      submit(api, name, pr);
    }
    for (long pr = 1; pr <= prs; pr++) {
      awaitState(api, name, pr, "merged");
    }
  }

  public static JsonNode pr(Api api, String name, long number) {
    return api.post("/v1/getSubmittedPullRequest", prBody(name, number)).json();
  }

  /**
   * Uploads the impacted targets of PR {@code pr} at head {@code sha}: {@code targets} is their
   * JSON (a list of names, or {@code "IMPACTS_ALL"}).
   */
  public static void impactedTargets(Api api, String name, long pr, String sha, String targets) {
    String request =
        body(
            name,
            "\"pr\":{\"number\":"
                + pr
                + ",\"sha\":\""
                + sha
                + "\"},\"impactedTargets\":"
                + targets);
    assertThat(api.post("/v1/setImpactedTargets", request).status()).isEqualTo(200);
  }

  /** CI reports {@code context} as {@code state} on commit {@code sha} of {@code acme/<name>}. */
  public static void reportStatus(Api api, String name, String sha, String context, String state) {
    Api.Response answer =
        api.post(
            "/v1/ci/reportStatus",
            "{\"repo\":{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\""
                + name
                + "\"},\"sha\":\""
                + sha
                + "\",\"context\":\""
                + context
                + "\",\"state\":\""
                + state
                + "\"}");
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
  }

  /** The head of the one trainyard test branch in {@code repo}, once there is exactly one. */
  public static String testBranchHead(dev.trainyard.worker.scm.git.BareRepo repo) {
    return Awaitility.await()
        .atMost(PATIENCE)
        .until(() -> repo.refs("refs/heads/trainyard-merge/").values(), heads -> heads.size() == 1)
        .iterator()
        .next()
        .name();
  }

  public static JsonNode awaitState(Api api, String name, long number, String state) {
    return awaitPr(api, name, number, pr -> pr.get("state").asString().equals(state));
  }

  /** Polls the PR until {@code condition} holds (a failed request counts as not yet). */
  public static JsonNode awaitPr(Api api, String name, long number, Predicate<JsonNode> condition) {
    return Awaitility.await()
        .atMost(PATIENCE)
        .pollInterval(Duration.ofMillis(100))
        .ignoreExceptions()
        .until(() -> pr(api, name, number), condition::test);
  }
}
