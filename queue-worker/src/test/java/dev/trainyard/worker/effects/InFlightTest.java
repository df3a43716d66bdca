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
    inFlight.noResult("q#r", T0.plusSeconds(1));

    assertThat(inFlight.claim("q#r", "LandRun", T0.plusSeconds(2))).isFalse();
    assertThat(inFlight.claim("q#r", "LandRun", T0.plusSeconds(1).plus(InFlight.AFTER_FAILURE)))
        .isTrue();
  }
}
