package dev.trainyard.standalone.support;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;

/** A clock the test moves: the worker's notion of now, so timeouts need no waiting. */
public final class TestClock implements InstantSource {
  private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

  @Override
  public Instant instant() {
    return Instant.now().plus(offset.get());
  }

  public void advance(Duration by) {
    offset.updateAndGet(current -> current.plus(by));
  }
}
