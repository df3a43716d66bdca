package dev.trainyard.standalone.guarantees;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.Api.prBody;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.EventLog;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.TestClock;
import dev.trainyard.standalone.support.TestStack;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Time-driven rules go through the same ordered path as every command: the worker's ticker sends a
 * tick to a queue whose deadline passed, and the engine cancels the stale PR.
 */
class TimersIT extends OwnStack {
  private final TestClock clock = new TestClock();

  @Override
  protected List<ApplicationContextInitializer<ConfigurableApplicationContext>> workerSetup() {
    return List.of(TestStack.clock(clock));
  }

  @Test
  void aPullRequestNotReadyForTooLongIsCancelledByATick() {
    Api api = stack.api();
    String repo = Api.uniqueRepo();
    assertThat(api.post("/v1/createQueue", body(repo, "")).status()).isEqualTo(200);
    assertThat(api.post("/v1/updateQueue", body(repo, "\"notReadyTimeoutHours\":2")).status())
        .isEqualTo(200);
    assertThat(api.post("/v1/submitPullRequest", prBody(repo, 1)).status()).isEqualTo(200);
    String pr = prBody(repo, 1);

    clock.advance(Duration.ofMinutes(119));
    assertThat(api.post("/v1/getSubmittedPullRequest", pr).json().get("state").asString())
        .isEqualTo("not_ready");

    clock.advance(Duration.ofMinutes(2));
    Awaitility.await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                api.post("/v1/getSubmittedPullRequest", pr)
                    .json()
                    .get("state")
                    .asString()
                    .equals("cancelled"));
    assertThat(
            EventLog.readAll(stack.infrastructure().kafkaBootstrap()).stream()
                .filter(e -> e.body().path("repository").path("name").asString("").equals(repo))
                .filter(e -> "pull_request.canceled".equals(e.type()))
                .map(e -> e.body().get("cancellation_reason").asString()))
        .containsExactly("NOT_READY_TIMEOUT");
  }
}
