package dev.trainyard.bench.flaky;

import dev.trainyard.flaky.cases.QuarantineSetting;
import dev.trainyard.flaky.cases.RecentRun;
import dev.trainyard.flaky.cases.RunHistory;
import dev.trainyard.flaky.cases.TestCase;
import dev.trainyard.flaky.classify.Classifier;
import dev.trainyard.flaky.classify.Health;
import dev.trainyard.flaky.classify.Status;
import dev.trainyard.flaky.classify.TargetBranch;
import dev.trainyard.flaky.ingest.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * How often the real classifier changes the status of one flaky test (each change is a {@code
 * test_case.status_changed} event, a jump in the listing's order, and with auto-quarantine a test
 * that starts or stops failing every pull request's CI). A test fails each run independently with
 * probability {@code p}; every hour CI runs once on a new commit of {@code main} and twice on pull
 * requests (new commits), and half of the failed runs are re-run once on the same commit, as people
 * press "re-run" (each run is its own upload). The history and the classification go through {@link
 * RunHistory} and {@link Classifier} as the service's ingestion does; the first week is warm-up,
 * the next {@value #WEEKS} are counted, over {@value #SEEDS} seeds.
 *
 * <p>Arguments: none. Prints one row per failure rate: status changes per week, quarantine changes
 * per week with auto-quarantine on, and the share of the time listed broken.
 */
public final class FlappingSimulation {
  static final int WEEKS = 8;
  static final int SEEDS = 20;
  static final double RERUN = 0.5;
  private static final TargetBranch MAIN = TargetBranch.of("main");
  private static final Instant START = Instant.parse("2026-01-05T00:00:00Z");

  /** What one simulated test went through in the counted weeks. */
  record Outcomes(int changes, int quarantineChanges, Map<Health, Long> hours) {}

  private FlappingSimulation() {}

  public static void main(String[] args) {
    System.out.println(
        "| failure rate | status changes / week | quarantine changes / week | time broken |");
    System.out.println("|---|---|---|---|");
    for (int percent = 10; percent <= 60; percent += 10) {
      double changes = 0;
      double quarantine = 0;
      double broken = 0;
      for (int seed = 1; seed <= SEEDS; seed++) {
        Outcomes o = simulate(percent / 100.0, seed);
        changes += o.changes() / (double) WEEKS;
        quarantine += o.quarantineChanges() / (double) WEEKS;
        long all = o.hours().values().stream().mapToLong(Long::longValue).sum();
        broken += o.hours().getOrDefault(Health.BROKEN, 0L) / (double) all;
      }
      System.out.printf(
          Locale.ROOT,
          "| %d %% | %.2f | %.2f | %.1f %% |%n",
          percent,
          changes / SEEDS,
          quarantine / SEEDS,
          100 * broken / SEEDS);
    }
  }

  static Outcomes simulate(double failureRate, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    List<RecentRun> runs = List.of();
    Status status = null;
    int changes = 0;
    int quarantineChanges = 0;
    Map<Health, Long> hours = new EnumMap<>(Health.class);
    int upload = 0;
    int hoursInAll = 24 * 7 * (WEEKS + 1);
    for (int hour = 0; hour < hoursInAll; hour++) {
      boolean counted = hour >= 24 * 7;
      Instant at = START.plus(Duration.ofHours(hour));
      List<RecentRun> arriving = new ArrayList<>();
      arriving.addAll(commit(random, failureRate, "main-" + hour, "main", null, at, upload));
      arriving.addAll(
          commit(random, failureRate, "pr-a-" + hour, "feature-a", 1L, at.plusSeconds(600), 100));
      arriving.addAll(
          commit(random, failureRate, "pr-b-" + hour, "feature-b", 2L, at.plusSeconds(1200), 200));
      for (RecentRun run : arriving) {
        runs = RunHistory.add(runs, withId(run, upload++), MAIN, run.at());
        Status next = Classifier.classify(RunHistory.observations(runs), MAIN, run.at(), status);
        Status was = status == null ? Status.healthy(run.at()) : status;
        if (counted
            && was.value() != next.value()
            && !(status == null && next.value() == Health.HEALTHY)) {
          changes++;
          if (quarantined(was) != quarantined(next)) {
            quarantineChanges++;
          }
        }
        status = next;
      }
      if (counted && status != null) {
        hours.merge(status.value(), 1L, Long::sum);
      }
    }
    return new Outcomes(changes, quarantineChanges, hours);
  }

  /** One commit's CI: a run, and a re-run on the same commit for half of the failed ones. */
  private static List<RecentRun> commit(
      SplittableRandom random,
      double failureRate,
      String sha,
      String branch,
      Long pr,
      Instant at,
      int salt) {
    List<RecentRun> runs = new ArrayList<>();
    Outcome first = random.nextDouble() < failureRate ? Outcome.FAILED : Outcome.PASSED;
    runs.add(new RecentRun("", sha, branch, pr, first, at));
    if (first == Outcome.FAILED && random.nextDouble() < RERUN) {
      Outcome again = random.nextDouble() < failureRate ? Outcome.FAILED : Outcome.PASSED;
      runs.add(new RecentRun("", sha, branch, pr, again, at.plusSeconds(300)));
    }
    return runs;
  }

  private static RecentRun withId(RecentRun run, int upload) {
    return new RecentRun(
        "u" + upload, run.commitSha(), run.branch(), run.prNumber(), run.outcome(), run.at());
  }

  private static boolean quarantined(Status status) {
    return TestCase.quarantined(QuarantineSetting.UNSPECIFIED, status.value(), true);
  }
}
