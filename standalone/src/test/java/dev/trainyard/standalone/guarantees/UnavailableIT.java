package dev.trainyard.standalone.guarantees;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.Api.prBody;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.OwnStack;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Kafka or MongoDB away: 503 with Retry-After within 5 s, never a hang, never a 500 (API.md §1).
 */
public class UnavailableIT extends OwnStack {
  private static final int CONCURRENT_READS = 8;

  @Test
  void brokerThenStoreGoingAwayIsAServiceUnavailable() throws Exception {
    Api api = stack.api();
    String repo = Api.uniqueRepo();
    assertThat(api.post("/v1/createQueue", body(repo, "")).status()).isEqualTo(200);

    stack.infrastructure().stopKafka();

    long start = System.nanoTime();
    Api.Response submit = api.post("/v1/submitPullRequest", prBody(repo, 1));
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertThat(submit.status()).as(submit.body()).isEqualTo(503);
    assertThat(submit.headers().firstValue("retry-after")).contains("5");
    assertThat(submit.contentType()).startsWith("text/plain");
    assertThat(millis).as("answered within 5 s").isLessThan(5_000);
    // reads come from the store, which is still there
    assertThat(api.post("/v1/getQueue", body(repo, "")).status()).isEqualTo(200);

    stack.infrastructure().stopMongo();

    // several reads at once: the first to fail pauses the driver's connection pool, and the
    // others then fail with "pool cleared", which is the same outage
    start = System.nanoTime();
    List<Api.Response> reads = concurrently(() -> api.post("/v1/getQueue", body(repo, "")));
    millis = (System.nanoTime() - start) / 1_000_000;
    for (Api.Response read : reads) {
      assertThat(read.status()).as(read.body()).isEqualTo(503);
      assertThat(read.headers().firstValue("retry-after")).contains("5");
    }
    assertThat(millis).as("answered within 5 s").isLessThan(5_000);
    // an unknown token cannot be checked either: still 503, not 401 or 500
    assertThat(api.withToken("never-seen").post("/v1/getQueue", body(repo, "")).status())
        .isEqualTo(503);
  }

  private static List<Api.Response> concurrently(Callable<Api.Response> request)
      throws InterruptedException, ExecutionException {
    ExecutorService pool = Executors.newFixedThreadPool(CONCURRENT_READS);
    try {
      List<Api.Response> responses = new ArrayList<>();
      for (Future<Api.Response> response :
          pool.invokeAll(Collections.nCopies(CONCURRENT_READS, request))) {
        responses.add(response.get());
      }
      return responses;
    } finally {
      pool.shutdownNow();
    }
  }
}
