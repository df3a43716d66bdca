package dev.trainyard.standalone.flaky;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.flaky.store.FlakyCollections;
import dev.trainyard.gateway.flaky.FlakyTestsProxy;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.RawRequest;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Duration;
import java.util.List;
import org.bson.Document;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * Over real sockets: a 200 MiB upload gets a clean 413 (with or without a Content-Length) and
 * stores nothing; with the flaky-tests service down, its routes answer 503 with Retry-After at
 * once, and the circuit breaker opens.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FlakyLimitsAndOutageIT extends OwnStack {
  private static final long SIZE = 200L * 1024 * 1024;

  @Test
  @Order(1)
  void a200MiBUploadWithItsLengthDeclaredIsRefusedBeforeItIsRead() throws Exception {
    String repo = Api.uniqueRepo();
    long started = System.nanoTime();

    RawRequest.Answer answer = RawRequest.upload(port(), stack.api().token(), repo, SIZE, false);

    assertThat(answer.status()).isEqualTo(413);
    assertThat(answer.headers().get("content-type")).startsWith("text/plain");
    assertThat(answer.body()).contains("larger than the limit of 100 MiB");
    assertThat(answer.bytesSent()).isLessThan(SIZE);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
    assertThat(storedFor(repo)).isZero();
  }

  @Test
  @Order(2)
  void a200MiBChunkedUploadIsCutOffAt100MiB() throws Exception {
    String repo = Api.uniqueRepo();

    RawRequest.Answer answer = RawRequest.upload(port(), stack.api().token(), repo, SIZE, true);

    assertThat(answer.status()).as(answer.body()).isEqualTo(413);
    assertThat(answer.body()).contains("larger than the limit of 100 MiB");
    assertThat(answer.bytesSent()).isLessThan(SIZE);
    assertThat(storedFor(repo)).isZero();
  }

  @Test
  @Order(3)
  void withTheServiceDownItsRoutesAnswer503AtOnceAndTheBreakerOpens() {
    Api api = stack.api();
    String body =
        FlakyTestsIT.listBody(
            Api.uniqueRepo(), dev.trainyard.standalone.support.TestStack.ORG, "FLAKY", 5, "");
    assertThat(api.post("/v1/flaky-tests/list-unhealthy-tests", body).status()).isEqualTo(200);

    stack.services().stopFlaky();

    for (int i = 0; i < 8; i++) {
      long started = System.nanoTime();
      Api.Response r = api.post("/v1/flaky-tests/list-unhealthy-tests", body);
      assertThat(r.status()).as(r.body()).isEqualTo(503);
      assertThat(r.headers().firstValue("retry-after")).isPresent();
      assertThat(r.contentType()).startsWith("text/plain");
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    }
    CircuitBreaker breaker =
        stack.services().gatewayContext().getBean(FlakyTestsProxy.class).breaker();
    assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
    // the rest of the API does not depend on it
    assertThat(api.post("/v1/webhooks/listEndpoints", "{}").status()).isEqualTo(200);
  }

  private int port() {
    return stack.services().gatewayPort();
  }

  private long storedFor(String repo) {
    MongoTemplate mongo = stack.services().flakyContext().getBean(MongoTemplate.class);
    long n = 0;
    for (String collection :
        List.of(
            FlakyCollections.TEST_CASES,
            FlakyCollections.TEST_RESULTS,
            FlakyCollections.UPLOADS,
            FlakyCollections.REPO_SETTINGS)) {
      n +=
          mongo
              .getCollection(collection)
              .countDocuments(new Document("repo", "github.com/acme/" + repo));
    }
    return n;
  }
}
