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
  void aFlakyTestIsExcusedOnlyOnceItsFlakesOnGoodTreesWereSeenEnoughTimes() {
    FlakyTestList list = new FlakyTestList();
    for (int seen = 0; seen < FlakyTestList.LISTED_AFTER; seen++) {
      assertThat(said(list.upload("h" + seen, run(false, false, 7)))).containsExactly(1, 1);
    }
    assertThat(list.listed(7)).isTrue();
    assertThat(said(list.upload("next", run(false, false, 7)))).containsExactly(1, 0);
    // another flaky test in the same run is not excused by the first one's listing
    assertThat(said(list.upload("both", run(false, false, 7, 8)))).containsExactly(2, 1);
    assertThat(said(list.upload("green", run(false, false)))).containsExactly(0, 0);
  }

  @Test
  void failuresOnATreeThatBreaksTeachNothingAndTheBrokenTestIsNeverExcused() {
    FlakyTestList list = new FlakyTestList();
    for (int i = 0; i < 2 * FlakyTestList.LISTED_AFTER; i++) {
      assertThat(said(list.upload("b" + i, run(true, false, 3)))).containsExactly(2, 2);
    }
    assertThat(list.listed(3)).isFalse();
    for (int seen = 0; seen < FlakyTestList.LISTED_AFTER; seen++) {
      list.upload("g" + seen, run(false, false, 3));
    }
    // listed now: its failure is excused, the broken test's is not
    assertThat(said(list.upload("again", run(true, false, 3)))).containsExactly(2, 1);
  }

  @Test
  void anOutageFailsTestsThatAreNotFlakyAndIsNeverExcused() {
    FlakyTestList list = new FlakyTestList();
    int failed = FlakyTestList.OUTAGE_FAILURES;
    assertThat(said(list.upload("o", run(false, true)))).containsExactly(failed, failed);
  }

  @Test
  void beforeTheRunTheServiceListsTheTestsItSawFlakeOnTheTeamsOtherCi() {
    TeamWorld world =
        new TeamWorld(
            TeamWorkload.skewed(0.8, 0.7, 10),
            TeamWorkload.REFERENCE_CONCURRENCY,
            42,
            Instant.parse("2026-01-01T00:00:00Z"));
    int[] seen = world.flakesBefore(FlakyTestList.runsBefore(world.arrivalsPerHour()));
    double[] chance = world.flakeChances();
    FlakyTestList list = new FlakyTestList(world);
    int listed = 0;
    int flakiest = 0;
    for (int t = 0; t < seen.length; t++) {
      assertThat(list.listed(t)).as("test %d", t).isEqualTo(seen[t] >= FlakyTestList.LISTED_AFTER);
      listed += list.listed(t) ? 1 : 0;
      flakiest = chance[t] > chance[flakiest] ? t : flakiest;
    }
    // the heavy tail: the flakiest test is known, and not every test is
    assertThat(list.listed(flakiest)).isTrue();
    assertThat(listed).isBetween(1, seen.length - 1);
    // what it saw depends on the world alone, not on when it is asked
    assertThat(world.flakesBefore(FlakyTestList.runsBefore(world.arrivalsPerHour())))
        .containsExactly(seen);
  }
}
