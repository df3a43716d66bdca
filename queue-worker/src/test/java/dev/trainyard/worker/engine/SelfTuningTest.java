package dev.trainyard.worker.engine;

import static dev.trainyard.worker.engine.QueueFixture.queue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.QueueSettings;
import dev.trainyard.common.queue.QueueState;
import java.time.Duration;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The self-tuning scheduler's choices (SCHEDULING.md "Adaptive batching", "Adaptive concurrency").
 */
class SelfTuningTest {

  @ParameterizedTest(name = "p = {0}, window {1}, {2} bisection slots, at most {3}: B = {4}")
  @CsvSource({
    // no failures: the largest batch allowed
    "0,    10, 5, 16, 16",
    "0,    10, 5,  8,  8",
    // rare failures: still the largest
    "0.01, 10, 5, 16, 16",
    "0.02, 10, 5, 16, 16",
    // the prior of batchingMinSize 4 (1/16) in the benchmark's queue: its first size
    "0.0625, 10, 5, 16, 12",
    // the more PRs fail, the smaller the batch
    "0.05, 10, 5, 16, 14",
    "0.15, 10, 5, 16,  7",
    "0.3,  10, 5, 16,  5",
    // a narrower window throws less away behind a red batch, so smaller batches pay
    "0.05,  4, 5, 16, 11",
    // fewer bisection slots keep up with smaller batches only
    "0.05, 10, 1, 16,  4",
    // above (3 − √5)/2 every PR runs alone
    "0.39, 10, 5, 16,  1",
    "0.5,  10, 5, 16,  1",
  })
  void theBatchSizeFollowsTheFailureRate(
      double p, long window, long slots, long largest, long expected) {
    assertThat(SelfTuning.bestSize(p, largest, window, slots)).isEqualTo(expected);
  }

  @Test
  void withoutAdaptiveBatchingTheBatchIsBatchingMinSizeWhateverHappened() {
    QueueSettings fixed = QueueSettings.defaults(QueueMode.SINGLE, 5);
    RunHistory failing = RunHistory.EMPTY.concluded(50, true, 5);
    assertThat(SelfTuning.batchSize(fixed, failing)).isEqualTo(4);
  }

  @Test
  void theWindowHalvesOnAFailedPrAndWidensByOneOnAMergedOne() {
    RunHistory h = RunHistory.EMPTY.concluded(1, true, 8);
    assertThat(h.window()).isEqualTo(4);
    h = h.concluded(1, true, 8);
    assertThat(h.window()).isEqualTo(2);
    h = h.concluded(3, false, 8);
    assertThat(h.window()).isEqualTo(5);
    h = h.concluded(10, false, 8);
    assertThat(h.window()).as("never wider than concurrency").isEqualTo(8);
    h = h.concluded(5, true, 8);
    assertThat(h.window()).as("never below one").isEqualTo(1);
    // a queue whose concurrency was lowered starts from it
    assertThat(h.concluded(4, false, 8).concluded(1, true, 2).window()).isEqualTo(1);
  }

  @Test
  void theWindowIsTheFullConcurrencyUntilAdaptiveConcurrencyNarrowsIt() {
    QueueSettings fixed = QueueSettings.defaults(QueueMode.SINGLE, 6);
    QueueSettings adaptive = fixed.apply(QueueFixture.selfTuningPatch(null, null, true));
    RunHistory narrowed = RunHistory.EMPTY.concluded(1, true, 6);
    assertThat(SelfTuning.concurrency(fixed, narrowed)).isEqualTo(6);
    assertThat(SelfTuning.concurrency(adaptive, RunHistory.EMPTY)).isEqualTo(6);
    assertThat(SelfTuning.concurrency(adaptive, narrowed)).isEqualTo(3);
  }

  @Test
  void theFailureRateStartsWherebatchingMinSizeIsBestAndMovesWithOutcomes() {
    assertThat(RunHistory.EMPTY.prFailureRate(0.0625, 20)).isEqualTo(0.0625);
    RunHistory failing = RunHistory.EMPTY.concluded(20, true, 5);
    assertThat(failing.prFailureRate(0.0625, 20)).isEqualTo((20 + 1.25) / 40);
    RunHistory long_ = failing.concluded(RunHistory.KEPT_PRS, false, 5);
    assertThat(long_.prFailures()).hasSize(RunHistory.KEPT_PRS).doesNotContain(true);
  }

  @Test
  void anAdaptiveQueueBatchesFromItsPriorThenFromWhatItSaw() {
    QueueFixture q =
        queue()
            .batching(4, 0)
            .selfTuning(true, 16L, null)
            .state(QueueState.PAUSED)
            .queued(LongStream.rangeClosed(1, 40).toArray())
            .state(QueueState.RUNNING);
    // batchingMinSize 4 is best at p = 1/16; with a window of 5 the model then takes 10
    assertThat(q.prsOfRunOf(1)).hasSize(10);
    QueueFixture fixed =
        queue()
            .batching(4, 0)
            .state(QueueState.PAUSED)
            .queued(LongStream.rangeClosed(1, 40).toArray())
            .state(QueueState.RUNNING);
    assertThat(fixed.prsOfRunOf(1)).hasSize(4);
  }

  @Test
  void afterFailuresAnAdaptiveQueueSpeculatesLess() {
    QueueFixture adaptive = failedHead(queue().selfTuning(null, null, true));
    QueueFixture fixed = failedHead(queue());
    assertThat(fixed.state().runs().chain()).hasSize(5);
    // concurrency 5 halved
    assertThat(adaptive.state().runs().chain()).hasSize(2);
  }

  /** Eight PRs under test five at a time; the first fails alone. */
  private static QueueFixture failedHead(QueueFixture q) {
    return q.queued(1, 2, 3, 4, 5, 6, 7, 8).builtAll().red(1).builtAll().after(Duration.ZERO);
  }
}
