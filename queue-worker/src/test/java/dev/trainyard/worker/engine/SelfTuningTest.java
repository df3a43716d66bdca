package dev.trainyard.worker.engine;

import static dev.trainyard.worker.engine.QueueFixture.T0;
import static dev.trainyard.worker.engine.QueueFixture.queue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.QueueSettings;
import dev.trainyard.common.queue.QueueState;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * The self-tuning scheduler's choices (SCHEDULING.md "Adaptive batching", "Adaptive concurrency").
 */
class SelfTuningTest {
  /**
   * {@code QueueSettings.defaults(SINGLE, 5).version()} as the commit before the budget hashed it.
   */
  private static final String VERSION_BEFORE_THE_BUDGET = "69d9dfcf5098d85a";

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

  @ParameterizedTest(
      name = "p = {0}, window {1}, {2} slots, ≤ {3}, {4} runs a PR, {5} waiting, {6} free: B = {7}")
  @CsvSource({
    // a budget of 0.95 runs a PR (30 CI minutes a merged PR, 30-minute runs, p = 5 %): the
    // smallest size within it, where the cheapest (14) would make innocent PRs wait for bisection
    "0.05, 10, 5, 16, 0.95,   0, 10,  2",
    "0.05, 10, 5, 16, 0.95,  10, 10,  2",
    // more PRs waiting than the free slots take one run each: as many a run as takes them all now
    "0.05, 10, 5, 16, 0.95,  40, 10,  4",
    "0.05, 10, 5, 16, 0.95,  41, 10,  5",
    "0.05, 10, 5, 16, 0.95,  20,  2, 10",
    // no slot free (a forecast's question): taken as the one that frees next
    "0.05, 10, 5, 16, 0.95,   3,  0,  3",
    // ... never beyond the largest size bisection keeps up with
    "0.05, 10, 5, 16, 0.95, 400, 10, 14",
    "0.05, 10, 5, 16, 0.95,  30,  1, 14",
    "0.05, 10, 1, 16, 0.95, 400, 10,  4",
    // a budget that pays plain speculation: one PR a run while the free slots take them all
    "0.05, 10, 5, 16, 2.0,    0, 10,  1",
    "0.05, 10, 5, 16, 2.0,   25, 10,  3",
    // a budget nothing is within: the cheapest size, as without a budget
    "0.05, 10, 5, 16, 0.3,    0, 10, 14",
    // above (3 − √5)/2 every PR runs alone, whatever waits
    "0.39, 10, 5, 16, 0.95, 100, 10,  1",
  })
  void aCiBudgetBuysTheSmallestBatchThatTakesTheWaitingPrs(
      double p,
      long window,
      long slots,
      long largest,
      double runsPerPr,
      int waiting,
      long free,
      long size) {
    assertThat(SelfTuning.budgetedSize(p, largest, window, slots, runsPerPr, waiting, b -> free))
        .isEqualTo(size);
  }

  @Test
  void theBudgetIsReadInCiMinutesPerMergedPrAtTheQueuesMedianRun() {
    ObjectNode json = Json.mapper().valueToTree(QueueSettings.defaults(QueueMode.SINGLE, 10));
    json.put("batch", true).put("batchingAdaptive", true).put("ciBudgetMinutesPerMerge", 30);
    QueueSettings budgeted = Json.mapper().treeToValue(json, QueueSettings.class);
    // no verdict yet: 30-minute runs and the prior of batchingMinSize 4 (p = 1/16), so 30 minutes
    // are 0.94 runs a PR: a batch of 2 costs 0.89, one PR alone 1.28
    assertThat(SelfTuning.batchSize(budgeted, RunHistory.EMPTY, 0, b -> 10)).isEqualTo(2);
    // runs of 10 minutes: 2.8 runs a PR, one PR a run is within the budget
    RunHistory quick = RunHistory.EMPTY.with(Duration.ofMinutes(10), false);
    assertThat(SelfTuning.batchSize(budgeted, quick, 0, b -> 10)).isEqualTo(1);
    // without the budget, the fewest runs
    json.put("ciBudgetMinutesPerMerge", 0);
    QueueSettings unbudgeted = Json.mapper().treeToValue(json, QueueSettings.class);
    assertThat(SelfTuning.batchSize(unbudgeted, quick, 0, b -> 10)).isEqualTo(12);
    // in parallel mode the budget is kept, unused: lanes run one PR a run
    json.put("ciBudgetMinutesPerMerge", 30).put("mode", "parallel");
    QueueSettings parallel = Json.mapper().treeToValue(json, QueueSettings.class);
    assertThat(parallel.ciBudgetInForce()).isFalse();
    assertThat(SelfTuning.batchSize(parallel, quick, 0, b -> 10)).isEqualTo(12);
    assertThat(budgeted.ciBudgetInForce()).isTrue();
  }

  @Test
  void aQueueStoredBeforeTheBudgetReadsWithoutOneAndKeepsItsSettingsVersion() {
    QueueSettings defaults = QueueSettings.defaults(QueueMode.SINGLE, 5);
    ObjectNode json = Json.mapper().valueToTree(defaults);
    // no budget is not written, so the JSON, and the version hashed from it, are what they were
    assertThat(json.has("ciBudgetMinutesPerMerge")).isFalse();
    assertThat(defaults.version()).isEqualTo(VERSION_BEFORE_THE_BUDGET);
    assertThat(Json.mapper().treeToValue(json, QueueSettings.class).ciBudgetMinutesPerMerge())
        .isZero();
    json.put("ciBudgetMinutesPerMerge", 30);
    assertThat(Json.mapper().treeToValue(json, QueueSettings.class).version())
        .isNotEqualTo(defaults.version());
  }

  @Test
  void theRunsThatMayStartAreCountedAsTheRuleThatStartsThemCountsThem() {
    QueueFixture q = queue().state(QueueState.PAUSED).queued(1, 2, 3, 4, 5);
    assertThat(Batches.startable(q.state()).applyAsLong(1)).isEqualTo(5);
    q = q.state(QueueState.RUNNING).builtAll();
    assertThat(Batches.startable(q.state()).applyAsLong(1)).isZero();
    // four passed runs wait for the head, 5 of the lane's 10 PRs: four more runs of one PR may
    // start, three of two, one of eight (runs start while the lane holds fewer than 10 PRs)
    q = q.green(2).green(3).green(4).green(5);
    assertThat(Batches.startable(q.state()).applyAsLong(1)).isEqualTo(4);
    assertThat(Batches.startable(q.state()).applyAsLong(2)).isEqualTo(3);
    assertThat(Batches.startable(q.state()).applyAsLong(8)).isEqualTo(1);
  }

  @Test
  void withoutAdaptiveBatchingTheBatchIsBatchingMinSizeWhateverHappened() {
    QueueSettings fixed = QueueSettings.defaults(QueueMode.SINGLE, 5);
    RunHistory failing = RunHistory.EMPTY.concluded(50, true, 5, T0);
    assertThat(SelfTuning.batchSize(fixed, failing, 0, b -> 5)).isEqualTo(4);
  }

  /**
   * Runs concluded one after the other under concurrency 8, each written {@code minute:prs+} (that
   * many merged) or {@code minute:prs-} (a failed run of that many PRs); no verdict is recorded, so
   * a burst is counted within {@link RunHistory#BURST_WITHIN} (30 minutes).
   */
  @ParameterizedTest(name = "{0}: window {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "0:1-                          | 8",
        "0:1- 10:1-                    | 8",
        // the third failed run within one CI time is a burst: from then on each halves
        "0:1- 10:1- 20:1-              | 4",
        "0:1- 10:1- 20:1- 25:1-        | 2",
        "0:1- 10:1- 20:1- 25:3-        | 1",
        // failures spread wider than one CI time are single failures
        "0:1- 20:1- 40:1- 60:1-        | 8",
        "0:1- 29:1- 31:1-              | 8",
        // the oldest of the three exactly one CI time earlier is outside it
        "0:1- 15:1- 30:1-              | 8",
        // one failed run of several PRs is one failure, however many PRs it fails
        "0:5-                          | 8",
        // merges widen a narrowed window by one each, never past concurrency
        "0:1- 1:1- 2:1- 3:1- 4:3+      | 5",
        "0:1- 1:1- 2:1- 3:10+          | 8",
        // a burst goes no lower than one run
        "0:1- 1:1- 2:1- 3:1- 4:1- 5:1- | 1"
      })
  void aBurstOfFailedRunsHalvesTheWindowAndAMergeWidensIt(String runs, long window) {
    RunHistory h = RunHistory.EMPTY;
    for (String run : runs.trim().split("\\s+")) {
      String[] at = run.split(":");
      int prs = Integer.parseInt(at[1].substring(0, at[1].length() - 1));
      boolean failed = at[1].endsWith("-");
      h = h.concluded(prs, failed, 8, T0.plus(Duration.ofMinutes(Long.parseLong(at[0]))));
    }
    assertThat(h.window()).isEqualTo(window);
  }

  @Test
  void aBurstIsCountedWithinTheMedianRunOnceTheQueueHasVerdicts() {
    RunHistory slow = RunHistory.EMPTY.with(Duration.ofHours(2), false);
    RunHistory fast = RunHistory.EMPTY.with(Duration.ofMinutes(5), false);
    for (RunHistory h : List.of(slow, fast)) {
      RunHistory failed = h;
      // within the 30 minutes a queue without verdicts assumes, a burst; within a 5-minute CI, not
      for (int minute : new int[] {0, 10, 20}) {
        failed = failed.concluded(1, true, 8, T0.plus(Duration.ofMinutes(minute)));
      }
      assertThat(failed.window())
          .as("median run %s", h.medianDuration())
          .isEqualTo(h == slow ? 4 : 8);
    }
  }

  @Test
  void aQueueWhoseConcurrencyWasLoweredStartsFromIt() {
    RunHistory wide = RunHistory.EMPTY.concluded(4, false, 8, T0);
    assertThat(wide.concluded(1, true, 2, T0).window()).isEqualTo(2);
    assertThat(wide.concluded(1, false, 2, T0).window()).isEqualTo(2);
  }

  @Test
  void theWindowIsTheFullConcurrencyUntilAdaptiveConcurrencyNarrowsIt() {
    QueueSettings fixed = QueueSettings.defaults(QueueMode.SINGLE, 6);
    QueueSettings adaptive = fixed.apply(QueueFixture.selfTuningPatch(null, null, true));
    RunHistory narrowed = RunHistory.EMPTY;
    for (int minute = 0; minute < RunHistory.BURST; minute++) {
      narrowed = narrowed.concluded(1, true, 6, T0.plusSeconds(60L * minute));
    }
    assertThat(SelfTuning.concurrency(fixed, narrowed)).isEqualTo(6);
    assertThat(SelfTuning.concurrency(adaptive, RunHistory.EMPTY)).isEqualTo(6);
    assertThat(SelfTuning.concurrency(adaptive, narrowed)).isEqualTo(3);
  }

  @Test
  void theFailureRateStartsWherebatchingMinSizeIsBestAndMovesWithOutcomes() {
    assertThat(RunHistory.EMPTY.prFailureRate(0.0625, 20)).isEqualTo(0.0625);
    RunHistory failing = RunHistory.EMPTY.concluded(20, true, 5, T0);
    assertThat(failing.prFailureRate(0.0625, 20)).isEqualTo((20 + 1.25) / 40);
    RunHistory long_ = failing.concluded(RunHistory.KEPT_PRS, false, 5, T0);
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
  void aBudgetedQueueBatchesWhatItsWindowCannotTakeOneRunEach() {
    // 30 CI minutes per merged PR at the prior (p = 1/16) and 30-minute runs: two PRs a run
    assertThat(budgetedQueue(4).prsOfRunOf(1)).hasSize(2);
    assertThat(budgetedQueue(4).state().runs().chain()).hasSize(2);
    // 40 waiting for a window of 5: eight a run, so that all of them are in a run now
    QueueFixture busy = budgetedQueue(40);
    assertThat(busy.state().runs().chain())
        .extracting(r -> r.entryIds().size())
        .containsExactly(8, 8, 8, 8, 8);
  }

  private static QueueFixture budgetedQueue(int prs) {
    return queue()
        .batching(4, 0)
        .selfTuning(true, 16L, null)
        .ciBudget(30)
        .state(QueueState.PAUSED)
        .queued(LongStream.rangeClosed(1, prs).toArray())
        .state(QueueState.RUNNING);
  }

  @Test
  void afterABurstOfFailuresAnAdaptiveQueueSpeculatesLess() {
    Supplier<QueueFixture> adaptive = () -> queue().selfTuning(null, null, true);
    // two PRs failing is not yet a burst: the full window of five runs
    assertThat(failedInTurn(adaptive.get(), 2).state().runs().chain()).hasSize(5);
    assertThat(failedInTurn(queue(), 3).state().runs().chain()).hasSize(5);
    // the third within one CI time is: concurrency 5 halved
    assertThat(failedInTurn(adaptive.get(), 3).state().runs().chain()).hasSize(2);
  }

  /**
   * Twelve PRs under test five at a time; the first three land after runs of 30 minutes (one CI
   * time), then the next {@code failures} fail alone, one after another within it.
   */
  private static QueueFixture failedInTurn(QueueFixture q, int failures) {
    QueueFixture next =
        q.queued(LongStream.rangeClosed(1, 12).toArray()).builtAll().after(Duration.ofMinutes(30));
    for (long pr = 1; pr <= 3; pr++) {
      next = next.green(pr).landed(pr).builtAll();
    }
    for (long pr = 4; pr < 4 + failures; pr++) {
      next = next.red(pr).builtAll();
    }
    return next.after(Duration.ZERO);
  }
}
