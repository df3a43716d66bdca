package dev.trainyard.bench.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** What a queue in a team's world is charged and credited with. */
class TeamLedgerTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static Instant at(long minutes) {
    return T0.plus(Duration.ofMinutes(minutes));
  }

  /** A world whose first PRs are drawn, none broken in the homogeneous world's seed 1 prefix. */
  private static TeamWorld world(int prs) {
    TeamWorld world =
        new TeamWorld(TeamWorkload.homogeneous(0.5, 10), TeamWorkload.REFERENCE_CONCURRENCY, 1, T0);
    for (long n = 1; n <= prs; n++) {
      world.draw(n);
    }
    return world;
  }

  @Test
  void aCancelledRunIsChargedUntilItsCancellationAndNotAgainWhenItReports() {
    TeamLedger ledger = new TeamLedger(world(0));
    TeamWorld.Run green = new TeamWorld.Run(Duration.ofMinutes(30), false, false, false);
    ledger.started("a", at(0), green);
    ledger.started("b", at(0), green);
    ledger.cancelled("a", at(10));
    ledger.ended("a", at(30)); // its report still comes
    ledger.ended("b", at(30));
    TeamLedger.Figures f = ledger.close(at(60), 2);
    // 10 + 30 minutes over 2 merges
    assertThat(f.ciMinutesPerMerge()).isCloseTo(20, within(1e-9));
    // only the run that reported counts toward the flake rate, and it was green
    assertThat(f.flakeRate()).isZero();
  }

  @Test
  void theFlakeRateCountsCisOwnRedsOnTreesThatDoNotBreak() {
    TeamLedger ledger = new TeamLedger(world(0));
    ran(ledger, "clean", 30, false, false, false);
    ran(ledger, "flaky", 10, false, true, false);
    ran(ledger, "broken", 10, true, false, false);
    assertThat(ledger.close(at(30), 1).flakeRate()).isCloseTo(0.5, within(1e-9));
  }

  @Test
  void aGoodPrWronglyFailedCountsByTheCauseOfItsFirstFailure() {
    TeamLedger ledger = new TeamLedger(world(3));
    ran(ledger, "outage", 10, false, true, true);
    ran(ledger, "flaky", 10, false, true, false);
    ran(ledger, "broken", 10, true, false, false);
    ledger.wronglyFailed(1, "outage");
    ledger.wronglyFailed(1, "flaky"); // failed again, its first failure counted
    ledger.wronglyFailed(2, "flaky");
    ledger.wronglyFailed(3, "outage");
    ledger.wronglyFailed(4, "broken");
    TeamLedger.Figures f = ledger.close(at(60), 0);
    assertThat(f.wronglyFailed()).isEqualTo(4);
    assertThat(f.failedInOutages()).isEqualTo(2);
    assertThat(f.failedByFlakyTests()).isEqualTo(1);
  }

  @Test
  void aGoodPrIsTimedFromItsFirstSubmitAndOneStillWaitingCountsWithWhatItWaited() {
    TeamWorld world = world(3);
    assertThat(world.pr(1).broken() || world.pr(2).broken() || world.pr(3).broken()).isFalse();
    TeamLedger ledger = new TeamLedger(world);
    ledger.arrived(1, at(0));
    ledger.arrived(2, at(0));
    ledger.arrived(3, at(0));
    ledger.wronglyFailed(2, "flaked");
    ledger.wronglyFailed(2, "flaked"); // failed twice, one PR
    ledger.merged(1, at(60));
    ledger.merged(2, at(180)); // came back and merged: timed from its first submit
    TeamLedger.Figures f = ledger.close(at(600), 2);
    assertThat(f.goodPrs()).isEqualTo(3);
    assertThat(f.openAtEnd()).isEqualTo(1);
    assertThat(f.wronglyFailed()).isEqualTo(1);
    assertThat(f.arrived()).isEqualTo(3);
    // times 1 h, 3 h and 10 h (still waiting): p50 3 h, p95 10 h
    assertThat(f.p50Hours()).isCloseTo(3, within(1e-9));
    assertThat(f.p95Hours()).isCloseTo(10, within(1e-9));
  }

  @Test
  void aPrThatLeftForGoodIsNotTimed() {
    TeamLedger ledger = new TeamLedger(world(1));
    ledger.arrived(1, at(0));
    ledger.left(1);
    TeamLedger.Figures f = ledger.close(at(600), 0);
    assertThat(f.goodPrs()).isZero();
    assertThat(f.openAtEnd()).isZero();
  }

  /** Run {@code id} started at minute 0 and reported after {@code minutes}, as {@code Run} says. */
  private static void ran(
      TeamLedger ledger, String id, int minutes, boolean breaks, boolean flaked, boolean outage) {
    ledger.started(
        id, at(0), new TeamWorld.Run(Duration.ofMinutes(minutes), breaks, flaked, outage));
    ledger.ended(id, at(minutes));
  }
}
