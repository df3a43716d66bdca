package dev.trainyard.standalone.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.TrainyardServices;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.EmbeddedInfrastructure;
import dev.trainyard.standalone.support.Stack;
import dev.trainyard.standalone.support.TestStack;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The per-organization rate limit (API.md §1) with two gateway processes' worth of gateways on one
 * store: a burst from one organization spread over both is held to one bucket, answered 429 with an
 * integer {@code Retry-After}, while another organization's calls in the same second all pass.
 */
class LimitsIT {
  private static final int RATE = 10;
  private static final int BURST = 2 * RATE;
  private static final int MAX_QUEUE_PRS = 3;
  private static TestStack stack;
  private static ConfigurableApplicationContext secondGateway;

  @BeforeAll
  static void start() {
    stack =
        TestStack.start(
            EmbeddedInfrastructure::new,
            Map.of("trainyard.rate-limit-per-org", RATE, "trainyard.max-queue-prs", MAX_QUEUE_PRS));
    secondGateway = TrainyardServices.gateway(stack.properties());
  }

  @AfterAll
  static void stop() {
    secondGateway.close();
    stack.close();
  }

  @Test
  void aBurstOverTwoGatewaysDrawsOnOneBucketAndLeavesOtherOrganizationsAlone() throws Exception {
    Api first = stack.api();
    Api second =
        new Api(
            "http://127.0.0.1:"
                + secondGateway.getEnvironment().getRequiredProperty("local.server.port"),
            first.token());
    Stack.Organization other = stack.otherOrganization();
    String body = Api.body(Api.uniqueRepo(), "");
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Api.Response>> burst = new ArrayList<>();
      List<Future<Api.Response>> bystander = new ArrayList<>();
      long started = System.nanoTime();
      for (int i = 0; i < 160; i++) {
        Api gateway = i % 2 == 0 ? first : second;
        burst.add(pool.submit(() -> gateway.post("/v1/getQueue", body)));
        if (i % 16 == 0) {
          bystander.add(pool.submit(() -> other.api().post("/v1/getQueue", body)));
        }
      }
      int admitted = 0;
      int limited = 0;
      for (Future<Api.Response> f : burst) {
        Api.Response r = f.get(30, TimeUnit.SECONDS);
        if (r.status() == 429) {
          limited++;
          String retryAfter = r.headers().firstValue("retry-after").orElseThrow();
          assertThat(Integer.parseInt(retryAfter)).isGreaterThanOrEqualTo(1);
          assertThat(r.body()).startsWith("the organization's rate limit of 10 requests");
        } else {
          assertThat(r.status()).as(r.body()).isEqualTo(404);
          admitted++;
        }
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      System.out.printf(
          "LimitsIT: %d admitted, %d refused in %.2f s at %d/s over two gateways%n",
          admitted, limited, seconds, RATE);

      assertThat(limited).as("the burst went past the bucket").isGreaterThan(0);
      // one bucket for both gateways: its burst plus what flowed in meanwhile, plus the slice
      // each gateway may hold; two buckets would have let through twice the burst
      assertThat(admitted)
          .as("admitted in %.2f s", seconds)
          .isLessThanOrEqualTo((int) (BURST + RATE * seconds) + 2);
      for (Future<Api.Response> f : bystander) {
        assertThat(f.get(30, TimeUnit.SECONDS).status())
            .as("another organization is never slowed")
            .isEqualTo(404);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aQueueHoldingItsLimitOfPullRequestsRefusesAnotherWith429NamingTheLimit() {
    Api api = stack.otherOrganization().api();
    String repo = Api.uniqueRepo();
    assertThat(api.post("/v1/createQueue", Api.body(repo, "")).status()).isEqualTo(200);
    for (int pr = 1; pr <= MAX_QUEUE_PRS; pr++) {
      assertThat(api.post("/v1/submitPullRequest", Api.prBody(repo, pr)).status()).isEqualTo(200);
    }

    Api.Response refused = api.post("/v1/submitPullRequest", Api.prBody(repo, 99));
    Api.Response again = api.post("/v1/submitPullRequest", Api.prBody(repo, 2));

    assertThat(refused.status()).as(refused.body()).isEqualTo(429);
    assertThat(refused.body()).contains("TRAINYARD_MAX_QUEUE_PRS = 3");
    assertThat(refused.headers().firstValue("retry-after")).isPresent();
    assertThat(again.status()).as("a PR already in the queue is still idempotent").isEqualTo(200);
    assertThat(api.post("/v1/getSubmittedPullRequest", Api.prBody(repo, 99)).status())
        .as("nothing was stored for the refused PR")
        .isEqualTo(404);
  }
}
