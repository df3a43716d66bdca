package dev.trainyard.bench.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.QueueCommand;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the simulated flaky-tests service says of each upload, and what it learns from it. */
class FlakyTestListTest {
  private static TeamWorld.Run run(boolean breaks, boolean outage, Integer... flakyTests) {
    List<Integer> flaky = List.of(flakyTests);
    return new TeamWorld.Run(
        Duration.ofMinutes(30), breaks, !breaks && (outage || !flaky.isEmpty()), outage, flaky);
  }

  /** The upload's failed and unexcused tests, as {failed, unexcused}. */
  private static int[] said(QueueCommand.RecordTestResults upload) {
    assertThat(upload.excusedByPrs()).isEmpty();
    return new int[] {upload.failedTests(), upload.unexcusedFailures()};
  }

  @Test
  void aFlakyTestIsExcusedOnceAFlakeOfItIsOnRecordAndTheQueuesRunsTeachNothing() {
    FlakyTestList list = new FlakyTestList(new int[] {0, 1, 3});
    assertThat(said(list.upload("a", run(false, false, 1)))).containsExactly(1, 0);
    assertThat(said(list.upload("b", run(false, false, 2)))).containsExactly(1, 0);
    // never seen flaking: not excused, however often the queue's own commits fail it
    for (int i = 0; i < 3; i++) {
      assertThat(said(list.upload("c" + i, run(false, false, 0)))).containsExactly(1, 1);
    }
    assertThat(list.excused(0)).isFalse();
    // one flaky test excused does not excuse another in the same run
    assertThat(said(list.upload("both", run(false, false, 0, 1)))).containsExactly(2, 1);
    assertThat(said(list.upload("green", run(false, false)))).containsExactly(0, 0);
    assertThat(list.excused(7)).as("a test the record never named").isFalse();
  }

  @Test
  void theBrokenTestOfATreeThatBreaksIsNeverExcused() {
    FlakyTestList list = new FlakyTestList(new int[] {0, 0, 0, 1});
    // an excused flaky test's failure is, the broken test's is not
    assertThat(said(list.upload("again", run(true, false, 3)))).containsExactly(2, 1);
  }

  @Test
  void anOutageFailsTestsThatAreNotFlakyAndIsNeverExcused() {
    FlakyTestList list = new FlakyTestList(new int[] {1, 1});
    int failed = FlakyTestList.OUTAGE_FAILURES;
    assertThat(said(list.upload("o", run(false, true)))).containsExactly(failed, failed);
  }

  @Test
  void beforeTheRunTheServiceExcusesTheTestsItSawFlakeOnTheTeamsOtherCi() {
    TeamWorld world =
        new TeamWorld(
            TeamWorkload.skewed(0.8, 0.7, 10),
            TeamWorkload.REFERENCE_CONCURRENCY,
            42,
            Instant.parse("2026-01-01T00:00:00Z"));
    int[] seen = world.flakesBefore(FlakyTestList.runsBefore(world.arrivalsPerHour()));
    double[] chance = world.flakeChances();
    FlakyTestList list = new FlakyTestList(world);
    int excused = 0;
    int flakiest = 0;
    for (int t = 0; t < seen.length; t++) {
      assertThat(list.excused(t)).as("test %d", t).isEqualTo(seen[t] > 0);
      excused += list.excused(t) ? 1 : 0;
      flakiest = chance[t] > chance[flakiest] ? t : flakiest;
    }
    // the heavy tail: the flakiest test is known, and not every test is
    assertThat(list.excused(flakiest)).isTrue();
    assertThat(excused).isBetween(1, seen.length - 1);
    // what it saw depends on the world alone, not on when it is asked
    assertThat(world.flakesBefore(FlakyTestList.runsBefore(world.arrivalsPerHour())))
        .containsExactly(seen);
  }
}
