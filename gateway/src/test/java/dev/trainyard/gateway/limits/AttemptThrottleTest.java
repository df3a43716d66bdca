package dev.trainyard.gateway.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Sign-in attempts per key: a burst, then one attempt per refill, and a bounded memory. */
class AttemptThrottleTest {
  private final AtomicLong millis = new AtomicLong(1_000_000);
  private final InstantSource clock = () -> Instant.ofEpochMilli(millis.get());

  @Test
  void aKeyGetsItsBurstThenWaitsForTheRefill() {
    AttemptThrottle throttle = new AttemptThrottle(10, 20, 100, clock);

    for (int i = 0; i < 20; i++) {
      assertThat(throttle.attempt("192.0.2.1")).as("attempt %d", i).isZero();
    }
    assertThat(throttle.attempt("192.0.2.1")).as("one more: 6 s to the next token").isEqualTo(6);
    assertThat(throttle.attempt("192.0.2.2")).as("another key is not slowed").isZero();

    millis.addAndGet(6_000);
    assertThat(throttle.attempt("192.0.2.1")).isZero();
    assertThat(throttle.attempt("192.0.2.1")).isPositive();
  }

  @Test
  void remembersAtMostItsKeysAndForgetsTheLeastRecentlyTriedFirst() {
    AttemptThrottle throttle = new AttemptThrottle(10, 1, 3, clock);
    throttle.attempt("a");
    throttle.attempt("b");
    throttle.attempt("c");
    assertThat(throttle.attempt("a")).as("a is spent").isPositive();

    throttle.attempt("d"); // b, the least recently tried, is forgotten

    assertThat(throttle.keys()).isEqualTo(3);
    assertThat(throttle.attempt("a")).as("a is still remembered, and spent").isPositive();
    assertThat(throttle.attempt("b")).as("b starts again full").isZero();
  }
}
