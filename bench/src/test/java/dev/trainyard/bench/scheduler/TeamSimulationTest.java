package dev.trainyard.bench.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A queue of the real engine in a team's world: it drains, counts every good PR, merges no break.
 */
class TeamSimulationTest {
  private static Scenario queue(int batch, int hours) {
    return Scenario.plain("q", Duration.ofMinutes(30), 0.05, 10, hours, 42)
        .batches(batch)
        .antiFlake(1, true);
  }

  @Test
  void aLightlyLoadedQueueDrainsAndMergesEveryGoodPr() {
    TeamWorkload team = TeamWorkload.homogeneous(0.5, 24);
    Simulation.Result r = new Simulation(queue(4, 24), team).run();
    TeamLedger.Figures f = r.team();
    assertThat(f.openAtEnd()).isZero();
    assertThat(f.goodPrs()).isGreaterThan(100);
    assertThat(r.brokenMerged()).isZero();
    // at half of capacity a good PR waits about one CI time, a few at most
    assertThat(f.p50Hours()).isBetween(0.4, 1.5);
    assertThat(f.ciMinutesPerMerge()).isPositive();
  }

  @Test
  void anOverloadedQueueLeavesPrsWaitingAndCountsTheirWait() {
    // B = 1 and C = 5 against arrivals at 95 % of C = 10's capacity: the queue cannot keep up
    TeamWorkload team = TeamWorkload.homogeneous(0.95, 24);
    Simulation.Result r =
        new Simulation(
                Scenario.plain("q", Duration.ofMinutes(30), 0.05, 5, 24, 42).antiFlake(1, true),
                team)
            .run();
    TeamLedger.Figures f = r.team();
    assertThat(f.openAtEnd()).isPositive();
    // the ones left count with what they waited, so the p95 is no shorter than the drain
    assertThat(f.p95Hours()).isGreaterThan(team.drainHours());
  }

  @Test
  void noWorkloadMergesABreakingPr() {
    for (TeamWorkload team :
        new TeamWorkload[] {
          TeamWorkload.skewed(0.95, 0.7, 24),
          TeamWorkload.bursty(0.95, 24),
          TeamWorkload.pairwise(0.95, 24)
        }) {
      Simulation.Result r = new Simulation(queue(8, 24), team).run();
      assertThat(r.brokenMerged()).as(team.name()).isZero();
      assertThat(r.merged()).as(team.name()).isGreaterThan(100);
    }
  }
}
