package dev.trainyard.worker.processing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A worker lets its partitions go only after its polls failed for longer than the bound. */
class FailingStreakTest {
  private final AtomicLong now = new AtomicLong();
  private final FailingStreak streak = new FailingStreak(Duration.ofSeconds(60), now::get);

  @Test
  void failuresForLongerThanTheBoundReleaseOnceThenStartOver() {
    assertThat(streak.failed()).as("the first failure").isFalse();
    advance(59);
    assertThat(streak.failed()).isFalse();
    advance(2);
    assertThat(streak.failed()).as("61 s of failures").isTrue();
    assertThat(streak.failed()).as("a new streak").isFalse();
  }

  @Test
  void aStoredPollEndsTheStreak() {
    streak.failed();
    advance(50);
    streak.succeeded();
    advance(20);
    assertThat(streak.failed()).isFalse();
    advance(30);
    assertThat(streak.failed()).as("30 s since the streak began again").isFalse();
  }

  private void advance(long seconds) {
    now.addAndGet(Duration.ofSeconds(seconds).toNanos());
  }
}
