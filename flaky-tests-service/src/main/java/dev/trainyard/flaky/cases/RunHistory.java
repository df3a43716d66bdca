package dev.trainyard.flaky.cases;

import dev.trainyard.flaky.classify.Observation;
import dev.trainyard.flaky.classify.TargetBranch;
import dev.trainyard.flaky.ingest.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The bounded run history a test-case document carries, enough for every classification rule and
 * for {@code pull_requests_impacted_last_7d}, whatever the volume of pull-request runs:
 *
 * <ul>
 *   <li>the newest {@value #TARGET_KEPT} runs on the target branch (B1, B2, F3, recovery from
 *       broken);
 *   <li>every failure and every pass on a retry of the last {@value #EVIDENCE_DAYS} days (up to
 *       {@value #EVIDENCE_KEPT}), with the passes of the commits they failed on: the evidence F1
 *       and F2 read in their 7 days and the flakes that decide when a flaky test has recovered;
 *   <li>the newest {@value #WINDOW_KEPT} other runs of the last 7 days (a later failure on their
 *       commit, redelivered uploads).
 * </ul>
 *
 * <p>Before, only the newest 100 runs of the week were kept: at 4 pull-request runs an hour,
 * "within 7 days" meant the last ~25 hours. Passes are the bulk of the runs and are thinned; the
 * evidence is not. Skipped runs are not runs and are not kept. The full log of runs lives in {@code
 * flaky_test_results}; the document never grows beyond these bounds.
 */
public final class RunHistory {
  public static final int TARGET_KEPT = 20;
  public static final int WINDOW_KEPT = 100;
  public static final int EVIDENCE_KEPT = 100;
  public static final int EVIDENCE_DAYS = 28;
  public static final Duration WINDOW = Duration.ofDays(7);
  static final Duration EVIDENCE_WINDOW = Duration.ofDays(EVIDENCE_DAYS);

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
    Instant week = now.minus(WINDOW);
    Instant evidenceSince = now.minus(EVIDENCE_WINDOW);
    Set<String> failedOn = new HashSet<>();
    for (RecentRun r : newestFirst) {
      if (isEvidence(r) && !r.at().isBefore(evidenceSince)) {
        failedOn.add(r.commitSha());
      }
    }
    List<RecentRun> kept = new ArrayList<>();
    int target = 0;
    int window = 0;
    int evidence = 0;
    for (RecentRun r : newestFirst) {
      boolean recent = !r.at().isBefore(evidenceSince);
      if (targetBranch.matches(r.branch(), r.prNumber()) && target < TARGET_KEPT) {
        target++;
        kept.add(r);
      } else if (isEvidence(r) && recent && evidence < EVIDENCE_KEPT) {
        evidence++;
        kept.add(r);
      } else if (r.outcome() != Outcome.FAILED_IN_OUTAGE
          && !isEvidence(r)
          && recent
          && failedOn.contains(r.commitSha())) {
        kept.add(r); // a pass of a commit it also failed on: F1's evidence, as long as the failure
      } else if (!r.at().isBefore(week) && window < WINDOW_KEPT) {
        window++;
        kept.add(r);
      }
    }
    return kept;
  }

  /** A failure (not in an outage) or a pass on a retry: what F1, F2 and recovery read. */
  private static boolean isEvidence(RecentRun r) {
    return r.outcome() == Outcome.FAILED || r.outcome() == Outcome.PASSED_ON_RETRY;
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
