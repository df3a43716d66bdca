package dev.trainyard.bench.scheduler;

import dev.trainyard.common.command.QueueCommand;
import java.util.List;

/**
 * What the flaky-tests service knows in a team's world, and what it says of each run's upload. CI
 * uploads every run's results (SCHEDULING.md "Flake-aware failures"); the service excuses a failed
 * test once it has a flake of it on record from outside the upload (ADR 0059): one is enough, the
 * test need not be listed flaky yet. Its record is {@link #DAYS_BEFORE} days of the team's other CI
 * before the queue's run, {@link #RUNS_PER_PR} runs per arriving PR — the PR's own CI, re-run until
 * green, and the target branch's after it merged — where every failure on a tree that does not
 * break is a flake (ADR 0041: a failure on a commit that also passed, or on the target branch). The
 * queue's own runs add nothing: each builds a commit of its own, and a failure on a commit that
 * never passed is no evidence of a flake.
 *
 * <p>An upload's failures: each flaky test that failed, excused or not; the broken test of a tree
 * that breaks; and in an outage {@link #OUTAGE_FAILURES} tests that are not flaky. Only flaky tests
 * with a flake on record are excused.
 */
final class FlakyTestList {
  static final int OUTAGE_FAILURES = 20;
  static final int DAYS_BEFORE = 14;
  static final int RUNS_PER_PR = 2;

  private final int[] flakesSeen;

  /** A service with {@code flakesSeen[t]} flakes of test {@code t} on record. */
  FlakyTestList(int[] flakesSeen) {
    this.flakesSeen = flakesSeen.clone();
  }

  /** A service that saw {@link #DAYS_BEFORE} days of {@code world}'s CI before the queue's run. */
  FlakyTestList(TeamWorld world) {
    this(world.flakesBefore(runsBefore(world.arrivalsPerHour())));
  }

  /** The runs the service saw before the queue's run, at {@code arrivalsPerHour}. */
  static int runsBefore(double arrivalsPerHour) {
    return (int) Math.round(DAYS_BEFORE * 24 * arrivalsPerHour * RUNS_PER_PR);
  }

  /** The upload of {@code run}'s results for its head {@code head}. */
  QueueCommand.RecordTestResults upload(String head, TeamWorld.Run run) {
    List<Integer> flaky = run.flakyTests();
    int unexcused = (int) flaky.stream().filter(t -> !excused(t)).count();
    int others = (run.breaks() ? 1 : 0) + (run.outage() ? OUTAGE_FAILURES : 0);
    return new QueueCommand.RecordTestResults(
        head, flaky.size() + others, unexcused + others, List.of());
  }

  boolean excused(int test) {
    return test < flakesSeen.length && flakesSeen[test] > 0;
  }
}
