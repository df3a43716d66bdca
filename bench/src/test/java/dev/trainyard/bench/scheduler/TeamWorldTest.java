package dev.trainyard.bench.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The team world draws what TeamWorkload describes, and the same seed draws the same world. */
class TeamWorldTest {
  private static final Instant THURSDAY = Instant.parse("2026-01-01T00:00:00Z");

  @ParameterizedTest(name = "Beta({0}, {1}) has mean {2}")
  @CsvSource({"0.25, 4.75, 0.05", "2, 2, 0.5", "1, 9, 0.1"})
  void betaDrawsHaveTheirMean(double a, double b, double mean) {
    Random random = new Random(7);
    double sum = 0;
    int n = 200_000;
    for (int i = 0; i < n; i++) {
      sum += Draws.beta(random, a, b);
    }
    assertThat(sum / n).isCloseTo(mean, within(mean * 0.03));
  }

  @Test
  void skewedRiskIsMostlyLowWithAHeavyTail() {
    Random random = new Random(11);
    int low = 0;
    int high = 0;
    int n = 100_000;
    for (int i = 0; i < n; i++) {
      double r = Draws.beta(random, 0.25, 4.75);
      low += r < 0.01 ? 1 : 0;
      high += r > 0.3 ? 1 : 0;
    }
    // most PRs almost never break, a few percent break often
    assertThat(low / (double) n).isGreaterThan(0.5);
    assertThat(high / (double) n).isBetween(0.01, 0.06);
  }

  @ParameterizedTest(name = "AUC of {0}")
  @CsvSource({"0.70", "0.85"})
  void thePredictorIsHeldToItsAuc(double auc) {
    TeamWorld world = world(TeamWorkload.skewed(0.8, auc, 100), 3);
    assertThat(world.measuredAuc()).isCloseTo(auc, within(0.02));
    // and on the PRs the run draws, not only on the presample it was calibrated with
    List<TeamWorld.Pr> prs = new ArrayList<>();
    for (long n = 1; n <= 30_000; n++) {
      prs.add(world.draw(n));
    }
    double[] scores = prs.stream().mapToDouble(TeamWorld.Pr::predicted).toArray();
    boolean[] broken = new boolean[prs.size()];
    for (int i = 0; i < prs.size(); i++) {
      broken[i] = prs.get(i).broken();
    }
    assertThat(Draws.auc(scores, broken)).isCloseTo(auc, within(0.03));
    assertThat(prs.stream().filter(TeamWorld.Pr::broken).count() / (double) prs.size())
        .isCloseTo(0.05, within(0.005));
  }

  @Test
  void aucCountsTiesAsHalfAndOrderAsWhole() {
    assertThat(Draws.auc(new double[] {1, 2, 3, 4}, new boolean[] {false, false, true, true}))
        .isEqualTo(1.0);
    assertThat(Draws.auc(new double[] {1, 1, 1, 1}, new boolean[] {false, true, false, true}))
        .isEqualTo(0.5);
    assertThat(Draws.auc(new double[] {4, 3, 2, 1}, new boolean[] {false, false, true, true}))
        .isEqualTo(0.0);
  }

  @Test
  void weekdayHoursArriveAtThreeTimesTheMeanAndTheWeekAveragesToIt() {
    TeamWorkload team = TeamWorkload.skewed(0.8, 0.7, 24 * 7 * 20);
    TeamWorld world = world(team, 5);
    int[] byHourOfWeek = new int[168];
    Instant end = THURSDAY.plus(Duration.ofDays(7 * 20));
    int count = 0;
    for (Instant at = world.nextArrival(THURSDAY); at.isBefore(end); at = world.nextArrival(at)) {
      int hour = (int) (Duration.between(THURSDAY, at).toHours() % 168);
      byHourOfWeek[hour]++;
      count++;
    }
    double perHour = count / (20.0 * 168);
    assertThat(perHour).isCloseTo(world.arrivalsPerHour(), within(world.arrivalsPerHour() * 0.03));
    // Thursday 10:00 is a peak hour, Saturday 10:00 (hour 58 from Thursday 00:00) a quiet one
    double thursdayTen = byHourOfWeek[10] / 20.0;
    double saturdayTen = byHourOfWeek[58] / 20.0;
    assertThat(thursdayTen / world.arrivalsPerHour()).isCloseTo(3, within(0.6));
    assertThat(saturdayTen / world.arrivalsPerHour()).isCloseTo(TeamWorld.QUIET, within(0.15));
  }

  @Test
  void greenRunsFlakeAtTheWorkloadsRateAndRedRunsEndEarly() {
    TeamWorld world = world(TeamWorkload.skewed(0.8, 0.7, 100), 13);
    Set<Long> tree = Set.of();
    int red = 0;
    int n = 20_000;
    List<Long> greenMinutes = new ArrayList<>();
    List<Long> redMinutes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      // a run every 5 min, as a busy queue starts them: stickiness must not run away with it
      TeamWorld.Run run = world.run(tree, THURSDAY.plus(Duration.ofMinutes(5L * i)));
      assertThat(run.breaks()).isFalse();
      if (run.red()) {
        red++;
        redMinutes.add(run.duration().toMinutes());
      } else {
        greenMinutes.add(run.duration().toMinutes());
      }
    }
    // stickiness raises the rate above the 3 % of a run whose tests all start clean, not far
    assertThat(red / (double) n).isBetween(0.03, 0.05);
    greenMinutes.sort(Long::compare);
    redMinutes.sort(Long::compare);
    assertThat(greenMinutes.get(greenMinutes.size() / 2)).isBetween(28L, 32L);
    // a red run stops at its first failure: 30–100 % of its length, 65 % at the median
    assertThat(redMinutes.get(redMinutes.size() / 2)).isBetween(15L, 24L);
    double[] chances = world.flakeChances();
    java.util.Arrays.sort(chances);
    // a heavy tail: the flakiest test alone flakes more often than the 50 least flaky together
    double leastFifty = 0;
    for (int t = 0; t < 50; t++) {
      leastFifty += chances[t];
    }
    assertThat(chances[chances.length - 1]).isGreaterThan(leastFifty);
  }

  @Test
  void aRunHoldingABrokenPrOrBothHalvesOfAPairIsRed() {
    TeamWorld world = world(TeamWorkload.pairwise(0.8, 100), 17);
    TeamWorld.Pr paired = null;
    TeamWorld.Pr broken = null;
    long n = 1;
    while (paired == null || broken == null) {
      TeamWorld.Pr pr = world.draw(n++);
      if (pr.partner() != null
          && !pr.broken()
          && !world.pr(pr.partner()).broken()
          && world.pr(pr.partner()).partner() == null) {
        paired = pr;
      }
      if (pr.broken() && pr.partner() == null) {
        broken = pr;
      }
    }
    // the partner is a recent arrival of the same targets
    assertThat(world.pr(paired.partner()).group()).isEqualTo(paired.group());
    assertThat(paired.number() - paired.partner()).isPositive();
    Set<Long> alone = Set.of(paired.number());
    Set<Long> both = Set.of(paired.number(), paired.partner());
    assertThat(world.breaksWith(paired.number(), alone)).isFalse();
    assertThat(world.breaksWith(paired.number(), both)).isTrue();
    assertThat(world.partners(paired.partner())).contains(paired.number());
    assertThat(world.run(both, THURSDAY).breaks()).isTrue();
    assertThat(world.run(Set.of(broken.number()), THURSDAY).breaks()).isTrue();
    assertThat(world.run(alone, THURSDAY).breaks()).isFalse();
  }

  @Test
  void outagesComeEveryTwoDaysOnAverageAndLastAboutHalfAnHour() {
    TeamWorld world = world(TeamWorkload.bursty(0.8, 24 * 400), 19);
    List<Instant[]> outages = world.outages();
    // 400 days plus 200 of drain: ~300 outages
    assertThat(outages.size()).isBetween(250, 350);
    List<Long> minutes = new ArrayList<>();
    outages.forEach(o -> minutes.add(Duration.between(o[0], o[1]).toMinutes()));
    minutes.sort(Long::compare);
    assertThat(minutes.get(minutes.size() / 2)).isBetween(25L, 35L);
    Instant[] first = outages.get(0);
    assertThat(world.inOutage(first[0].plusSeconds(1))).isTrue();
    assertThat(world.inOutage(first[1])).isFalse();
  }

  /**
   * Two queues of one seed start different runs at different times; the PRs they meet must not
   * notice: arrivals and what each PR is come from streams CI's draws do not touch.
   */
  @Test
  void theSameSeedDrawsTheSamePrsWhateverRunsAQueueStarts() {
    TeamWorkload team = TeamWorkload.pairwise(0.95, 100);
    TeamWorld one = world(team, 23);
    TeamWorld two = world(team, 23);
    Instant a = THURSDAY;
    Instant b = THURSDAY;
    for (long n = 1; n <= 500; n++) {
      a = one.nextArrival(a);
      b = two.nextArrival(b);
      assertThat(a).isEqualTo(b);
      assertThat(one.draw(n)).isEqualTo(two.draw(n));
      // the first queue runs CI three times for each PR, the second once every fifth
      for (int k = 0; k < 3; k++) {
        one.run(Set.of(n), a);
      }
      if (n % 5 == 0) {
        two.run(new HashSet<>(List.of(n, n - 1)), b);
      }
    }
  }

  @Test
  void aStackedPrSitsOnThePrBeforeItAndAPushComesWithinTwoHours() {
    TeamWorld world = world(TeamWorkload.skewed(0.8, 0.7, 100), 29);
    int stacked = 0;
    int pushed = 0;
    int n = 20_000;
    for (long i = 1; i <= n; i++) {
      TeamWorld.Pr pr = world.draw(i);
      if (pr.parent() != null) {
        assertThat(pr.parent()).isEqualTo(i - 1);
        stacked++;
      }
      if (pr.pushAfter() != null) {
        assertThat(pr.pushAfter()).isLessThanOrEqualTo(Duration.ofHours(2));
        pushed++;
      }
    }
    assertThat(stacked / (double) n).isCloseTo(0.10, within(0.01));
    assertThat(pushed / (double) n).isCloseTo(0.05, within(0.01));
  }

  private static TeamWorld world(TeamWorkload team, long seed) {
    return new TeamWorld(team, TeamWorkload.REFERENCE_CONCURRENCY, seed, THURSDAY);
  }
}
