package dev.trainyard.bench.scheduler;

import dev.trainyard.common.command.QueueCommand;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the flaky-tests service knows in a team's world, and what it says of each run's upload. CI
 * uploads every run's results (SCHEDULING.md "Flake-aware failures"); the service lists a test
 * flaky once it has seen the test fail in {@link #LISTED_AFTER} runs on trees that do not break
 * (ADR 0041: a failure where the code was good is a flake). Before the queue's run it saw {@link
 * #DAYS_BEFORE} days of the team's other CI, {@link #RUNS_PER_PR} runs per arriving PR (its own CI,
 * the target branch's after it merged), counted as good trees and without stickiness; during the
 * run it learns from the queue's runs only.
 *
 * <p>An upload's failures: each flaky test that failed, listed or not; the broken test of a tree
 * that breaks; and in an outage {@link #OUTAGE_FAILURES} tests that are not flaky. Only listed
 * flaky tests are excused.
 */
final class FlakyTestList {
  static final int LISTED_AFTER = 2;
  static final int OUTAGE_FAILURES = 20;
  static final int DAYS_BEFORE = 14;
  static final int RUNS_PER_PR = 2;

  private final Map<Integer, Integer> flakesSeen = new HashMap<>();

  /** A service that has seen nothing yet. */
  FlakyTestList() {}

  /** A service that saw {@link #DAYS_BEFORE} days of {@code world}'s CI before the queue's run. */
  FlakyTestList(TeamWorld world) {
    int[] seen = world.flakesBefore(runsBefore(world.arrivalsPerHour()));
    for (int t = 0; t < seen.length; t++) {
      if (seen[t] > 0) {
        flakesSeen.put(t, seen[t]);
      }
    }
  }

  /** The runs the service saw before the queue's run, at {@code arrivalsPerHour}. */
  static int runsBefore(double arrivalsPerHour) {
    return (int) Math.round(DAYS_BEFORE * 24 * arrivalsPerHour * RUNS_PER_PR);
  }

  /** The upload of {@code run}'s results for its head {@code head}, then what it taught. */
  QueueCommand.RecordTestResults upload(String head, TeamWorld.Run run) {
    List<Integer> flaky = run.flakyTests();
    int unlisted = (int) flaky.stream().filter(t -> !listed(t)).count();
    int others = (run.breaks() ? 1 : 0) + (run.outage() ? OUTAGE_FAILURES : 0);
    if (!run.breaks()) {
      flaky.forEach(t -> flakesSeen.merge(t, 1, Integer::sum));
    }
    return new QueueCommand.RecordTestResults(
        head, flaky.size() + others, unlisted + others, List.of());
  }

  boolean listed(int test) {
    return flakesSeen.getOrDefault(test, 0) >= LISTED_AFTER;
  }
}
