package dev.trainyard.cli.http;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** Pauses that only move a clock of their own, and remember each pause. */
public final class TestPauses implements Pauses {
  private final AtomicLong nanos = new AtomicLong();
  private final List<Duration> taken = new CopyOnWriteArrayList<>();

  @Override
  public void pause(Duration pause) {
    taken.add(pause);
    nanos.addAndGet(pause.toNanos());
  }

  @Override
  public long nanoTime() {
    return nanos.get();
  }

  public List<Duration> taken() {
    return List.copyOf(taken);
  }
}
