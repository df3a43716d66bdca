package dev.trainyard.flaky.cases;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.flaky.classify.TargetBranch;
import dev.trainyard.flaky.ingest.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bounded history a test-case document keeps: enough for every rule, never more. */
class RunHistoryTest {
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
  private static final TargetBranch MAIN = TargetBranch.of("main");

  private static RecentRun run(String upload, String branch, Long pr, Outcome o, Duration ago) {
    return new RecentRun(upload, "sha-" + upload, branch, pr, o, NOW.minus(ago));
  }

  @Test
  void theSameUploadIsAddedOnce() {
    RecentRun r = run("u1", "main", null, Outcome.FAILED, Duration.ZERO);

    List<RecentRun> once = RunHistory.add(List.of(), r, MAIN, NOW);
    List<RecentRun> twice = RunHistory.add(once, r, MAIN, NOW);

    assertThat(twice).containsExactly(r);
  }

  @Test
  void skippedRunsAreNotKept() {
    assertThat(
            RunHistory.add(
                List.of(), run("u", "main", null, Outcome.SKIPPED, Duration.ZERO), MAIN, NOW))
        .isEmpty();
  }

  @Test
  void keepsTheNewest20TargetRunsAndThinsOnlyThePassesOfTheWeek() {
    List<RecentRun> runs = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      runs.add(run("m" + i, "main", null, Outcome.PASSED, Duration.ofDays(10 + i)));
    }
    for (int i = 0; i < 120; i++) {
      runs.add(run("p" + i, "feature", (long) i, Outcome.PASSED, Duration.ofMinutes(i + 1)));
    }
    runs.add(run("old", "feature", 999L, Outcome.PASSED, Duration.ofDays(8)));

    List<RecentRun> kept =
        RunHistory.add(runs, run("new", "main", null, Outcome.FAILED, Duration.ZERO), MAIN, NOW);

    assertThat(kept.stream().filter(r -> r.branch().equals("main"))).hasSize(20);
    assertThat(kept.stream().filter(r -> r.branch().equals("feature"))).hasSize(100);
    assertThat(kept)
        .extracting(RecentRun::uploadId)
        .contains("new", "m0", "m18")
        .doesNotContain("m19", "old", "p100");
  }

  /**
   * At 4 pull-request runs an hour the newest 100 runs were the last ~25 hours: a failure and the
   * passing re-run of its commit two days ago were gone, and with them the test's flakiness.
   */
  @Test
  void keepsEveryFailureOf28DaysWithThePassesOfItsCommitWhateverTheVolume() {
    List<RecentRun> runs = new ArrayList<>();
    runs.add(
        new RecentRun(
            "fail", "sha-x", "feature", 1L, Outcome.FAILED, NOW.minus(Duration.ofDays(20))));
    runs.add(
        new RecentRun(
            "rerun", "sha-x", "feature", 1L, Outcome.PASSED, NOW.minus(Duration.ofDays(20))));
    runs.add(run("retry", "feature", 2L, Outcome.PASSED_ON_RETRY, Duration.ofDays(2)));
    runs.add(run("ancient", "feature", 3L, Outcome.FAILED, Duration.ofDays(29)));
    runs.add(run("outage", "feature", 4L, Outcome.FAILED_IN_OUTAGE, Duration.ofDays(2)));
    for (int i = 0; i < 4 * 24 * 7; i++) {
      runs.add(run("p" + i, "feature", 10L + i, Outcome.PASSED, Duration.ofMinutes(15 * i + 1)));
    }

    List<RecentRun> kept = RunHistory.current(runs, MAIN, NOW);

    assertThat(kept)
        .extracting(RecentRun::uploadId)
        .contains("fail", "rerun", "retry")
        .doesNotContain("ancient", "outage", "p100");
    assertThat(kept).hasSize(103);
  }

  @Test
  void pullRequestsImpactedCountsDistinctPrsWithAFailureInSevenDays() {
    List<RecentRun> runs =
        List.of(
            run("a", "f", 1L, Outcome.FAILED, Duration.ofDays(1)),
            run("b", "f", 1L, Outcome.FAILED, Duration.ofDays(2)),
            run("c", "f", 2L, Outcome.FAILED, Duration.ofDays(6)),
            run("d", "f", 3L, Outcome.PASSED, Duration.ofDays(1)),
            run("e", "f", 4L, Outcome.FAILED, Duration.ofDays(8)),
            run("g", "main", null, Outcome.FAILED, Duration.ofDays(1)));

    assertThat(RunHistory.pullRequestsImpacted(runs, NOW)).isEqualTo(2);
  }
}
