package dev.trainyard.bench.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A burst of failures rather than one: {@link #FAILURES} PRs failed within {@code within} (one CI
 * time). A single broken PR fails one PR, however many speculative runs its red takes with it; an
 * outage or a broken target fails several unrelated ones at once.
 */
final class BurstDetector {
  static final int FAILURES = 3;

  private final Duration within;
  private final Deque<Instant> recent = new ArrayDeque<>();

  BurstDetector(Duration within) {
    this.within = within;
  }

  /** A PR failed at {@code now}. */
  void failed(Instant now) {
    recent.addLast(now);
  }

  /** Whether the failures of the last {@code within} before {@code now} make a burst. */
  boolean inBurst(Instant now) {
    while (!recent.isEmpty() && !recent.peekFirst().isAfter(now.minus(within))) {
      recent.removeFirst();
    }
    return recent.size() >= FAILURES;
  }
}
