package dev.trainyard.worker.effects;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** When an effect of a run may be started again. */
class InFlightTest {
  private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");
  private static final Duration PATIENCE = Duration.ofSeconds(30);
  private final InFlight inFlight = new InFlight(PATIENCE);

  @Test
  void aRunningEffectIsNotStartedTwiceNorAnotherEffectOfItsRun() {
    assertThat(inFlight.claim("q#r", "LandRun", T0)).isTrue();

    assertThat(inFlight.claim("q#r", "LandRun", T0.plusSeconds(60))).isFalse();
    assertThat(inFlight.claim("q#r", "DeleteTestBranch", T0.plusSeconds(60))).isFalse();
    assertThat(inFlight.claim("q#other", "LandRun", T0)).as("another run").isTrue();
  }

  @Test
  void aFinishedEffectWaitsForItsResultForThePatienceThenIsRepeated() {
    inFlight.claim("q#r", "LandRun", T0);
    inFlight.finished("q#r", T0.plusSeconds(1));

    assertThat(inFlight.claim("q#r", "LandRun", T0.plusSeconds(30))).isFalse();
    assertThat(inFlight.claim("q#r", "DeleteTestBranch", T0.plusSeconds(2)))
        .as("the state asks for the next effect: the result came")
        .isTrue();
  }

  @Test
  void aFinishedEffectWhoseResultNeverCameIsRepeatedAfterThePatience() {
    inFlight.claim("q#r", "LandRun", T0);
    inFlight.finished("q#r", T0.plusSeconds(1));

    assertThat(inFlight.claim("q#r", "LandRun", T0.plusSeconds(31))).isTrue();
  }

  @Test
  void aFailedEffectIsTriedAgainSoonNotAfterThePatience() {
    inFlight.claim("q#r", "LandRun", T0);
    inFlight.noResult("q#r", T0.plusSeconds(1), false);

    assertThat(inFlight.claim("q#r", "LandRun", T0.plusSeconds(2))).isFalse();
    assertThat(inFlight.claim("q#r", "LandRun", T0.plusSeconds(1).plus(InFlight.AFTER_FAILURE)))
        .isTrue();
  }

  @Test
  void anEffectThatKeepsFailingWaitsTwiceAsLongEachTimeUpToFiveMinutes() {
    java.time.Instant at = T0;
    java.util.List<Long> waits = new java.util.ArrayList<>();
    for (int failure = 1; failure <= 10; failure++) {
      assertThat(inFlight.claim("q#r", "LandRun", at)).isTrue();
      inFlight.noResult("q#r", at, false);
      java.time.Duration wait = InFlight.backoff(failure);
      assertThat(inFlight.claim("q#r", "LandRun", at.plus(wait).minusMillis(1))).isFalse();
      waits.add(wait.toSeconds());
      at = at.plus(wait);
    }
    assertThat(waits).containsExactly(2L, 4L, 8L, 16L, 32L, 64L, 128L, 256L, 300L, 300L);

    assertThat(inFlight.claim("q#r", "LandRun", at)).isTrue();
    inFlight.finished("q#r", at);
    inFlight.noResult("q#r", at, false); // a success in between starts the count again
    assertThat(inFlight.claim("q#r", "LandRun", at.plus(InFlight.AFTER_FAILURE))).isTrue();
  }

  /** Before, a refusal GitHub would repeat was tried again after 2 s, then 4 s, 8 s, … */
  @Test
  void anEffectTheHostRefusesWaitsTheLongestBackoffAtOnce() {
    inFlight.claim("q#r", "BuildTestBranch", T0);
    inFlight.noResult("q#r", T0, true);

    assertThat(
            inFlight.claim("q#r", "BuildTestBranch", T0.plus(InFlight.MAX_BACKOFF).minusSeconds(1)))
        .isFalse();
    assertThat(inFlight.claim("q#r", "BuildTestBranch", T0.plus(InFlight.MAX_BACKOFF))).isTrue();
  }
}
