package dev.trainyard.bench.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BurstDetectorTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  /** Failures at these minutes, asked at {@code askedAt}: a burst is 3 within 30 minutes. */
  @ParameterizedTest(name = "failures at {0}, asked at {1} → {2}")
  @CsvSource({
    "'', 0, false",
    "0, 0, false",
    "0 5, 5, false",
    "0 5 10, 10, true",
    "0 5 10, 29, true",
    "0 5 10, 31, false",
    "0 40 80, 80, false",
    "0 1 2 40, 40, false",
    "0 25 28, 28, true",
    "0 25 28, 55, false"
  })
  void threeFailuresWithinOneCiTimeAreABurst(String minutes, long askedAt, boolean burst) {
    BurstDetector detector = new BurstDetector(Duration.ofMinutes(30));
    for (String m : minutes.trim().split(" ")) {
      if (!m.isEmpty()) {
        detector.failed(T0.plus(Duration.ofMinutes(Long.parseLong(m))));
      }
    }
    assertThat(detector.inBurst(T0.plus(Duration.ofMinutes(askedAt)))).isEqualTo(burst);
  }
}
