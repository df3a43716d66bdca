package dev.trainyard.flaky.classify;

import static java.util.stream.Collectors.toSet;

import dev.trainyard.flaky.ingest.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The classification rules, evaluated on a test's runs; the most severe status that applies wins:
 *
 * <table>
 *   <tr><th>rule</th><th>status</th><th>evidence</th></tr>
 *   <tr><td>B1</td><td>broken</td><td>it failed in at least 8 of the last 10 runs on the target
 *       branch (not for a test that is flaky)</td></tr>
 *   <tr><td>B2</td><td>broken</td><td>its last 5 runs on the target branch all failed (10 for a
 *       test that is flaky)</td></tr>
 *   <tr><td>F1</td><td>flaky</td><td>it passed and failed on the same commit (any branch) within
 *       7 days</td></tr>
 *   <tr><td>F2</td><td>flaky</td><td>it passed on a retry within 7 days</td></tr>
 *   <tr><td>F3</td><td>flaky</td><td>on the target branch its failure rate over the last 20 runs
 *       is between 10 % and 80 % and it went from passing to failing at least twice (a failure
 *       streak that ended — a broken test that was fixed — is not flakiness)</td></tr>
 *   <tr><td>A</td><td>healthy</td><td>a flaky or broken test with no run in 7 days (removed,
 *       renamed, disabled)</td></tr>
 *   <tr><td>H</td><td>healthy</td><td>none of the above; a broken test becomes healthy again
 *       only after a clean recovery: its last 10 target-branch runs passed, or its last 10 runs on
 *       any branch passed at the first attempt. A flaky test becomes healthy again only once it
 *       has not flaked for 14 days and for three times the mean interval between its flakes of the
 *       last 28 days (at a steady run rate, 3/p̂ runs for a flake rate p̂): with no flake in 28
 *       days in any case</td></tr>
 * </table>
 *
 * <p>A flake is a failure on the target branch, a failure on a commit that also passed, or a pass
 * on a retry. Before, 10 clean runs were a recovery: a test that flakes 2 % of its runs went flaky,
 * healthy and flaky again about five times a week, each change a quarantine toggle ({@code
 * bench/README.md}, "Classification at CI volume").
 *
 * <p>Runs of an upload read as an infrastructure outage ({@link Outcome#FAILED_IN_OUTAGE}) are no
 * evidence of anything.
 *
 * <p>B1 and B2 count only failures on commits where the test never passed: while the same commits
 * show it passing and failing, a streak is flakiness. A broken test becomes flaky only once at
 * least half of its last 10 target-branch runs passed. Together these keep a flaky test that
 * strings a few failures together flaky (and quarantined) instead of flapping to broken and back
 * ({@code bench/README.md}, "Flapping").
 *
 * <p>Which runs are target-branch runs is {@link TargetBranch}'s rule.
 *
 * <p>{@code status.timestamp} is when the test entered its status: kept while the status holds.
 */
public final class Classifier {
  static final Duration WINDOW = Duration.ofDays(7);
  static final int BROKEN_WINDOW = 10;
  static final int BROKEN_FAILURES = 8;
  static final int BROKEN_STREAK = 5;
  static final int FLAKY_WINDOW = 20;
  static final int RECOVERY_RUNS = 10;
  static final int FLAKY_TRANSITIONS = 2;
  static final int FLAKY_BROKEN_STREAK = 10;
  static final Duration RECOVERY_QUIET = Duration.ofDays(14);
  static final Duration FLAKE_HORIZON = Duration.ofDays(28);
  static final int RECOVERY_INTERVALS = 3;

  /** Why an unhealthy test that stopped running is healthy again. */
  static final String NOT_SEEN =
      "no runs in 7 days: removed, renamed or disabled (listed again if it fails again)";

  private Classifier() {}

  /**
   * @param runs the test's runs, any order
   * @param previous its status before, or null for a new test
   */
  public static Status classify(
      List<Observation> runs, TargetBranch targetBranch, Instant now, Status previous) {
    if (previous != null
        && previous.value() != Health.HEALTHY
        && runs.stream().allMatch(r -> r.at().isBefore(now.minus(WINDOW)))) {
      return new Status(Health.HEALTHY, NOT_SEEN, now);
    }
    List<Observation> newestFirst =
        runs.stream()
            .filter(Observation::evidence)
            .sorted(Comparator.comparing(Observation::at).reversed())
            .toList();
    List<Observation> target =
        perCommit(newestFirst.stream().filter(targetBranch::matches).toList());
    Set<String> passedOn = passedOn(runs);
    boolean wasFlaky = previous != null && previous.value() == Health.FLAKY;
    Map<String, List<Observation>> configurations = byConfiguration(target);
    Optional<String> broken = inAny(configurations, group -> broken(group, passedOn, wasFlaky));
    Optional<String> flaky =
        broken.isPresent() ? Optional.empty() : flaky(runs, configurations, now);
    Health value =
        broken.isPresent() ? Health.BROKEN : flaky.isPresent() ? Health.FLAKY : Health.HEALTHY;
    if (value == Health.FLAKY
        && previous != null
        && previous.value() == Health.BROKEN
        && (configurations.isEmpty()
            || !configurations.values().stream().allMatch(Classifier::recoveredFromBroken))) {
      return previous; // the streak has not ended yet: broken, with its evidence, until it passes
    }
    if (value == Health.HEALTHY && previous != null && previous.value() == Health.FLAKY) {
      return recoveredFromFlaky(runs, targetBranch, passedOn, now)
          .map(why -> new Status(Health.HEALTHY, why, now))
          .orElse(previous); // not quiet long enough: it keeps its status and its evidence
    }
    if (value == Health.HEALTHY && previous != null && previous.value() != Health.HEALTHY) {
      if (cleanRun(target, Observation::passed)) {
        return new Status(
            Health.HEALTHY,
            "recovered: its last "
                + RECOVERY_RUNS
                + " runs on "
                + targetBranch.describe()
                + " passed",
            now);
      }
      if (cleanRun(newestFirst, r -> r.outcome() == Outcome.PASSED)) {
        return new Status(
            Health.HEALTHY,
            "recovered: its last "
                + RECOVERY_RUNS
                + " runs passed at the first attempt, with no flaky evidence in 7 days",
            now);
      }
      return previous; // no clean recovery yet: it keeps its status and its evidence
    }
    String reason =
        value == Health.BROKEN
            ? broken.get()
            : value == Health.FLAKY ? flaky.get() : "no failures in the recent runs";
    Instant since = previous != null && previous.value() == value ? previous.since() : now;
    return new Status(value, reason, since);
  }

  /**
   * The target-branch runs as one observation per commit, newest commit first: a commit passed when
   * any of its runs passed (its re-runs are not several failures in a row), and commits are ordered
   * by {@link Observation#commitAt}, not by when their results arrived.
   */
  static List<Observation> perCommit(List<Observation> targetRuns) {
    Map<String, Observation> byCommit = new LinkedHashMap<>();
    for (Observation r : targetRuns) {
      byCommit.merge(r.commitIn(), r, (a, b) -> a.passed() || !b.passed() ? a : b.withCommitAt(a));
    }
    return byCommit.values().stream()
        .sorted(
            Comparator.comparing(Observation::commitAt).thenComparing(Observation::at).reversed())
        .toList();
  }

  /**
   * The runs in which the test flaked in the {@link #FLAKE_HORIZON} before {@code now}: failures on
   * the target branch, failures on a commit that also passed, passes on a retry (a failure on a
   * pull request that its commit never passed is the pull request's doing).
   */
  public static List<Observation> flakes(
      List<Observation> runs, TargetBranch targetBranch, Instant now) {
    Set<String> passedOn = passedOn(runs);
    return flakes(runs, targetBranch, passedOn, now);
  }

  private static List<Observation> flakes(
      List<Observation> runs, TargetBranch targetBranch, Set<String> passedOn, Instant now) {
    Instant horizon = now.minus(FLAKE_HORIZON);
    return runs.stream()
        .filter(r -> !r.at().isBefore(horizon))
        .filter(
            r ->
                r.outcome() == Outcome.PASSED_ON_RETRY
                    || r.failed() && (targetBranch.matches(r) || passedOn.contains(r.commitIn())))
        .toList();
  }

  /**
   * The flakes of {@link #flakes} that excuse a failure for a merge queue's second chance (ADR
   * 0059), where a target-branch failure on a commit that never passed counts only as a red between
   * two passes: a streak of reds, fixed or not, or a red newest commit may be a break, and excuses
   * nothing.
   */
  public static List<Observation> excusingFlakes(
      List<Observation> runs, TargetBranch targetBranch, Instant now) {
    Set<String> passedOn = passedOn(runs);
    Set<String> isolatedReds = new HashSet<>();
    List<Observation> target =
        perCommit(
            runs.stream().filter(Observation::evidence).filter(targetBranch::matches).toList());
    for (List<Observation> commits : byConfiguration(target).values()) {
      for (int i = 1; i + 1 < commits.size(); i++) {
        if (!commits.get(i).passed()
            && commits.get(i - 1).passed()
            && commits.get(i + 1).passed()) {
          isolatedReds.add(commits.get(i).commitIn());
        }
      }
    }
    return flakes(runs, targetBranch, passedOn, now).stream()
        .filter(
            r ->
                !r.failed()
                    || passedOn.contains(r.commitIn())
                    || isolatedReds.contains(r.commitIn()))
        .toList();
  }

  /**
   * Why a flaky test has recovered, if it has: no flake for {@link #RECOVERY_QUIET} and for {@value
   * #RECOVERY_INTERVALS} times the mean interval between its flakes of the {@link #FLAKE_HORIZON}.
   */
  static Optional<String> recoveredFromFlaky(
      List<Observation> runs, TargetBranch targetBranch, Set<String> passedOn, Instant now) {
    List<Instant> flakes =
        flakes(runs, targetBranch, passedOn, now).stream().map(Observation::at).toList();
    if (flakes.isEmpty()) {
      return Optional.of("recovered: no flake in " + FLAKE_HORIZON.toDays() + " days");
    }
    Instant last = flakes.stream().max(Instant::compareTo).orElseThrow();
    Duration quiet = Duration.between(last, now);
    Duration interval = FLAKE_HORIZON.dividedBy(flakes.size());
    Duration needed = interval.multipliedBy(RECOVERY_INTERVALS);
    if (needed.compareTo(RECOVERY_QUIET) < 0) {
      needed = RECOVERY_QUIET;
    }
    if (quiet.compareTo(needed) < 0) {
      return Optional.empty();
    }
    return Optional.of(
        "recovered: no flake in "
            + quiet.toDays()
            + " days (at least "
            + RECOVERY_QUIET.toDays()
            + " and three times its mean interval between flakes: "
            + flakes.size()
            + " in "
            + FLAKE_HORIZON.toDays()
            + " days)");
  }

  private static boolean cleanRun(List<Observation> newestFirst, Predicate<Observation> clean) {
    return newestFirst.size() >= RECOVERY_RUNS
        && newestFirst.subList(0, RECOVERY_RUNS).stream().allMatch(clean);
  }

  /** Pass-to-fail changes, oldest first: how often a passing test started failing again. */
  static int passToFail(List<Observation> newestFirst) {
    int changes = 0;
    for (int i = newestFirst.size() - 1; i > 0; i--) {
      if (newestFirst.get(i).passed() && newestFirst.get(i - 1).failed()) {
        changes++;
      }
    }
    return changes;
  }

  /**
   * B1 and B2, counting only failures on commits where the test never passed (a failure its own
   * commit also passed is flakiness, not breakage). A test known flaky needs a longer streak, its
   * last {@value #FLAKY_BROKEN_STREAK} runs: at a failure rate of 50 % five failures in a row come
   * every 32 runs, and each such streak would drop its quarantine and fail every pull request.
   */
  private static Optional<String> broken(
      List<Observation> target, Set<String> passedOn, boolean wasFlaky) {
    Predicate<Observation> hard = r -> r.failed() && !passedOn.contains(r.commitIn());
    List<Observation> last = target.subList(0, Math.min(BROKEN_WINDOW, target.size()));
    long failures = last.stream().filter(hard).count();
    if (!wasFlaky && last.size() == BROKEN_WINDOW && failures >= BROKEN_FAILURES) {
      return Optional.of(
          "failed in " + failures + " of its last " + BROKEN_WINDOW + " runs on the target branch");
    }
    int streak = wasFlaky ? FLAKY_BROKEN_STREAK : BROKEN_STREAK;
    if (target.size() >= streak && target.subList(0, streak).stream().allMatch(hard)) {
      return Optional.of("its last " + streak + " runs on the target branch all failed");
    }
    return Optional.empty();
  }

  /** The commits a test passed on, whatever branch or pull request ran them. */
  private static Set<String> passedOn(List<Observation> runs) {
    return runs.stream().filter(Observation::passed).map(Observation::commitIn).collect(toSet());
  }

  /**
   * A broken test is flaky again only once at least half of its last {@value #RECOVERY_RUNS}
   * target-branch runs passed: one pass after a streak does not end it.
   */
  private static boolean recoveredFromBroken(List<Observation> target) {
    List<Observation> last = target.subList(0, Math.min(RECOVERY_RUNS, target.size()));
    return last.size() == RECOVERY_RUNS
        && last.stream().filter(Observation::passed).count() * 2 >= RECOVERY_RUNS;
  }

  /**
   * The target-branch observations per configuration (one group when no report named one): a test
   * that fails only under one interpreter is broken there, and the other configuration's passes on
   * the same commits do not hide it.
   */
  static Map<String, List<Observation>> byConfiguration(List<Observation> target) {
    Map<String, List<Observation>> groups = new java.util.TreeMap<>();
    for (Observation r : target) {
      groups
          .computeIfAbsent(
              r.configuration() == null ? "" : r.configuration(), k -> new ArrayList<>())
          .add(r);
    }
    return groups;
  }

  /** The first reason a rule gives in any configuration, naming it when there are several. */
  private static Optional<String> inAny(
      Map<String, List<Observation>> configurations,
      java.util.function.Function<List<Observation>, Optional<String>> rule) {
    for (Map.Entry<String, List<Observation>> group : configurations.entrySet()) {
      Optional<String> reason = rule.apply(group.getValue());
      if (reason.isPresent()) {
        return configurations.size() > 1 && !group.getKey().isEmpty()
            ? reason.map(r -> r + " (in " + group.getKey() + ")")
            : reason;
      }
    }
    return Optional.empty();
  }

  private static Optional<String> flaky(
      List<Observation> runs, Map<String, List<Observation>> configurations, Instant now) {
    Instant since = now.minus(WINDOW);
    List<Observation> recent = runs.stream().filter(r -> !r.at().isBefore(since)).toList();
    Map<String, Set<Boolean>> byCommit = new HashMap<>();
    for (Observation r : recent) {
      if (r.failed() || r.passed()) {
        byCommit.computeIfAbsent(r.commitIn(), c -> new HashSet<>()).add(r.failed());
      }
    }
    long mixed = byCommit.values().stream().filter(v -> v.size() == 2).count();
    if (mixed > 0) {
      return Optional.of(
          "passed and failed on the same commit "
              + (mixed == 1 ? "once" : mixed + " times")
              + " in 7 days");
    }
    long retried = recent.stream().filter(r -> r.outcome() == Outcome.PASSED_ON_RETRY).count();
    if (retried > 0) {
      return Optional.of(
          "passed on a retry " + (retried == 1 ? "once" : retried + " times") + " in 7 days");
    }
    return inAny(configurations, Classifier::failureRate);
  }

  /** F3 on one configuration's target-branch runs. */
  private static Optional<String> failureRate(List<Observation> target) {
    List<Observation> window = target.subList(0, Math.min(FLAKY_WINDOW, target.size()));
    long failures = window.stream().filter(Observation::failed).count();
    double rate = window.isEmpty() ? 0 : failures / (double) window.size();
    if (failures >= 2 && rate >= 0.10 && rate < 0.80 && passToFail(window) >= FLAKY_TRANSITIONS) {
      return Optional.of(
          "failed in "
              + failures
              + " of its last "
              + window.size()
              + " runs on the target branch ("
              + Math.round(rate * 100)
              + " %)");
    }
    return Optional.empty();
  }
}
