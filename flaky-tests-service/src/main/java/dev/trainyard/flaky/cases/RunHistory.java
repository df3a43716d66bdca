package dev.trainyard.flaky.cases;

import dev.trainyard.flaky.classify.Observation;
import dev.trainyard.flaky.classify.TargetBranch;
import dev.trainyard.flaky.ingest.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The bounded run history a test-case document carries, enough for every classification rule and
 * for {@code pull_requests_impacted_last_7d}: the newest {@value #TARGET_KEPT} runs on the target
 * branch (B1, B2, F3, recovery) plus up to {@value #WINDOW_KEPT} other runs of the last 7 days (F1,
 * F2, impacted PRs). Skipped runs are not runs and are not kept. The full log of runs lives in
 * {@code flaky_test_results}; the document never grows beyond these bounds.
 */
public final class RunHistory {
  public static final int TARGET_KEPT = 20;
  public static final int WINDOW_KEPT = 100;
  public static final Duration WINDOW = Duration.ofDays(7);

  private RunHistory() {}

  /** {@code runs} with {@code run} added (once: an upload already there is not added again). */
  public static List<RecentRun> add(
      List<RecentRun> runs, RecentRun run, TargetBranch targetBranch, Instant now) {
    if (run.outcome() == Outcome.SKIPPED
        || runs.stream().anyMatch(r -> r.uploadId().equals(run.uploadId()))) {
      return prune(runs, targetBranch, now);
    }
    List<RecentRun> all = new ArrayList<>(runs);
    all.add(run);
    return prune(all, targetBranch, now);
  }

  /** {@code runs} as the history keeps them at {@code now} (older evidence left the window). */
  public static List<RecentRun> current(
      List<RecentRun> runs, TargetBranch targetBranch, Instant now) {
    return prune(runs, targetBranch, now);
  }

  static List<RecentRun> prune(List<RecentRun> runs, TargetBranch targetBranch, Instant now) {
    List<RecentRun> newestFirst =
        runs.stream()
            .sorted(
                Comparator.comparing(RecentRun::commitAt)
                    .thenComparing(RecentRun::at)
                    .reversed()
                    .thenComparing(RecentRun::uploadId))
            .toList();
    Instant since = now.minus(WINDOW);
    List<RecentRun> kept = new ArrayList<>();
    int target = 0;
    int window = 0;
    for (RecentRun r : newestFirst) {
      if (targetBranch.matches(r.branch(), r.prNumber()) && target < TARGET_KEPT) {
        target++;
        kept.add(r);
      } else if (!r.at().isBefore(since) && window < WINDOW_KEPT) {
        window++;
        kept.add(r);
      }
    }
    return kept;
  }

  public static List<Observation> observations(List<RecentRun> runs) {
    return runs.stream().map(RecentRun::observation).toList();
  }

  /** Distinct pull requests with a failure of the test in the 7 days before {@code now}. */
  public static int pullRequestsImpacted(List<RecentRun> runs, Instant now) {
    Instant since = now.minus(WINDOW);
    return (int)
        runs.stream()
            .filter(
                r ->
                    r.outcome() == Outcome.FAILED
                        && r.prNumber() != null
                        && !r.at().isBefore(since))
            .map(RecentRun::prNumber)
            .distinct()
            .count();
  }
}
