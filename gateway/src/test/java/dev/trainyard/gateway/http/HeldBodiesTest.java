package dev.trainyard.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpStatus;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

class HeldBodiesTest {
  private static final int CHUNK = 1024;

  /** {@code chunks} chunks of {@link #CHUNK} bytes, counting how many were asked for. */
  private static Flux<DataBuffer> body(int chunks, AtomicInteger pulled) {
    return Flux.range(0, chunks)
        .doOnNext(i -> pulled.incrementAndGet())
        .map(i -> DefaultDataBufferFactory.sharedInstance.wrap(new byte[CHUNK]));
  }

  @Test
  void aBodyWithinItsLimitArrivesWholeAndEveryChunkIsSeenFirst() {
    HeldBodies bodies = new HeldBodies(10 * CHUNK);
    ByteArrayOutputStream seen = new ByteArrayOutputStream();

    StepVerifier.create(
            bodies.hold(body(4, new AtomicInteger()), 4 * CHUNK, seen::writeBytes, Mono::just))
        .assertNext(bytes -> assertThat(bytes).hasSize(4 * CHUNK))
        .verifyComplete();
    assertThat(seen.size()).isEqualTo(4 * CHUNK);
    assertThat(bodies.held()).isZero();
  }

  @Test
  void aBodyPastItsLimitIsRefusedWithoutReadingOn() {
    HeldBodies bodies = new HeldBodies(1000 * CHUNK);
    AtomicInteger pulled = new AtomicInteger();

    StepVerifier.create(bodies.hold(body(1000, pulled), 3 * CHUNK, chunk -> {}, Mono::just))
        .verifyErrorSatisfies(
            e -> assertThat(((ApiException) e).status()).isEqualTo(HttpStatus.CONTENT_TOO_LARGE));
    assertThat(pulled.get()).isLessThanOrEqualTo(4 + 256); // one prefetch at most past the limit
    assertThat(bodies.held()).isZero();
  }

  @Test
  void bodiesHeldAtOnceShareTheBudgetAndThe503SaysRetry() {
    HeldBodies bodies = new HeldBodies(6 * CHUNK);
    // the first body is held (read, its request still being answered) while a second arrives
    var first =
        bodies
            .hold(body(4, new AtomicInteger()), 100 * CHUNK, chunk -> {}, bytes -> Mono.never())
            .subscribe();
    assertThat(bodies.held()).isEqualTo(4 * CHUNK);

    StepVerifier.create(
            bodies.hold(body(4, new AtomicInteger()), 100 * CHUNK, chunk -> {}, Mono::just))
        .verifyErrorSatisfies(
            e -> {
              ApiException refused = (ApiException) e;
              assertThat(refused.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
              assertThat(refused.retryAfterSeconds()).isPositive();
            });
    first.dispose();
    assertThat(bodies.held()).isZero();
  }
}
