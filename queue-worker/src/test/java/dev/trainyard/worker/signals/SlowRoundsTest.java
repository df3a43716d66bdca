package dev.trainyard.worker.signals;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SlowRoundsTest {
  /** A round that took {@code tookMillis} and ended at {@code atSeconds}, and what it reports. */
  private record Round(long tookMillis, long atSeconds, int reports) {}

  @Test
  void theFirstSlowRoundIsReportedAtOnceAndTheNextOnlyAMinuteAfterWithTheCountBetween() {
    List<Round> rounds =
        List.of(
            new Round(900, 0, 0), // within the second: neither counted nor reported
            new Round(1_000, 5, 0), // a second exactly is not longer than one
            new Round(1_001, 10, 1), // the first slow round: at once, whenever it comes
            new Round(4_000, 15, 0), // within the minute: counted
            new Round(200, 20, 0),
            new Round(2_500, 69, 0), // 59 s after the report: counted
            new Round(1_200, 70, 3), // a minute after: itself and the two between
            new Round(1_200, 75, 0),
            new Round(300, 200, 0), // a fast round reports nothing, however late
            new Round(1_500, 205, 2)); // the next slow one reports the one left counted
    SlowRounds slow = new SlowRounds(Duration.ofSeconds(1), Duration.ofMinutes(1));

    for (Round round : rounds) {
      assertThat(
              slow.ended(
                  Duration.ofMillis(round.tookMillis()).toNanos(),
                  Duration.ofSeconds(round.atSeconds()).toNanos()))
          .as("the round of %d ms at %d s", round.tookMillis(), round.atSeconds())
          .isEqualTo(round.reports());
    }
  }

  @Test
  void aMonotonicClockMayStartBelowZero() {
    SlowRounds slow = new SlowRounds(Duration.ofSeconds(1), Duration.ofMinutes(1));
    long start = Long.MIN_VALUE + 1; // System.nanoTime may be any value, negative included

    assertThat(slow.ended(Duration.ofSeconds(2).toNanos(), start)).isEqualTo(1);
    assertThat(slow.ended(Duration.ofSeconds(2).toNanos(), start + 1)).isZero();
  }
}
