package dev.trainyard.bench.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a run in a team's world is judged by: every good PR's time to merge (good: not broken, and
 * not one of a pair that breaks together, whose fate depends on the order) — from its first submit,
 * through pushes and resubmits, and for a PR still not merged when the run stops, the time it has
 * waited so far (nothing censored) — and the CI minutes spent, a cancelled run counting until it
 * was cancelled.
 */
final class TeamLedger {
  /**
   * {@code p50Hours}/{@code p95Hours}: good PRs' time to merge; {@code ciMinutesPerMerge}; {@code
   * goodPrs} submitted, {@code openAtEnd} of them not merged when the run stopped; {@code
   * wronglyFailed} good PRs failed at least once, {@code failedInOutages} of them first by a run an
   * outage turned red, {@code failedByFlakyTests} first by a flaky test's red (the others by a red
   * of a tree that breaks, or of a run that never reported); {@code flakeRate} the share of runs on
   * a tree that does not break that CI reported red all the same (flaky tests, outages); {@code
   * predictorAuc} as measured on the world's held-out presample; {@code unstableAt} when the queue
   * outgrew {@link #UNSTABLE_AT} PRs and was stopped (else null); {@code retested} red runs the
   * queue tested again because every failed test was excused by a flake on record.
   */
  record Figures(
      double p50Hours,
      double p95Hours,
      double ciMinutesPerMerge,
      int goodPrs,
      int openAtEnd,
      int wronglyFailed,
      int failedInOutages,
      int failedByFlakyTests,
      double flakeRate,
      double predictorAuc,
      Instant unstableAt,
      int arrived,
      int retested) {}

  /** A queue holding more PRs than this does not keep up with its arrivals. */
  static final int UNSTABLE_AT = 400;

  private final TeamWorld world;
  private final Map<Long, Instant> goodSince = new HashMap<>();
  private final List<Duration> goodTimes = new ArrayList<>();
  private final Map<Long, Integer> revisions = new HashMap<>();
  private final Set<Long> pushed = new HashSet<>();
  private final Map<String, Instant> running = new HashMap<>();
  private final Map<String, TeamWorld.Run> outcomes = new HashMap<>();
  private final Set<Long> failedGood = new HashSet<>();
  private final Map<String, TeamWorld.Run> ciReds = new HashMap<>();
  private int failedInOutages;
  private int failedByFlakyTests;
  private int cleanRuns;
  private int arrived;
  private int flakedRuns;
  private long ciMillis;
  private int goodPrs;
  private int returning;
  private int retested;
  private Instant unstableAt;

  TeamLedger(TeamWorld world) {
    this.world = world;
  }

  /** PR {@code pr} was first submitted: one not broken is timed from now. */
  void arrived(long pr, Instant now) {
    arrived++;
    if (!world.pr(pr).broken()) {
      goodSince.put(pr, now);
    }
  }

  void merged(long pr, Instant now) {
    Instant since = goodSince.remove(pr);
    if (since != null && world.partners(pr).isEmpty()) {
      goodTimes.add(Duration.between(since, now));
      goodPrs++;
    }
  }

  /** PR {@code pr} left the queue for good (broken, or its pair broke). */
  void left(long pr) {
    goodSince.remove(pr);
  }

  /** The head the source host shows of PR {@code pr}: a new one after every push. */
  String head(long pr) {
    return "pr" + pr + "." + revisions.getOrDefault(pr, 0);
  }

  void pushed(long pr) {
    revisions.merge(pr, 1, Integer::sum);
    pushed.add(pr);
  }

  /** Whether PR {@code pr} was taken out by a push (asked once per removal). */
  boolean wasPushed(long pr) {
    return pushed.remove(pr);
  }

  /** The queue outgrew {@link #UNSTABLE_AT} PRs at {@code now} and the run stopped. */
  void overflowed(Instant now) {
    unstableAt = now;
  }

  /** Good PR {@code pr} was failed by run {@code runId} (counted once however often). */
  void wronglyFailed(long pr, String runId) {
    TeamWorld.Run red = ciReds.get(runId);
    if (failedGood.add(pr) && red != null) {
      failedInOutages += red.outage() ? 1 : 0;
      failedByFlakyTests += red.outage() ? 0 : 1;
    }
  }

  /** The queue tested a red run again: its failed tests were all excused by flakes on record. */
  void retested() {
    retested++;
  }

  /** A PR was taken out and its author will submit it again. */
  void leaving() {
    returning++;
  }

  void returned() {
    returning--;
  }

  /** PRs taken out whose authors have not submitted them again yet. */
  int returning() {
    return returning;
  }

  /** Run {@code runId} started at {@code now} and will go as {@code run} says. */
  void started(String runId, Instant now, TeamWorld.Run run) {
    running.put(runId, now);
    outcomes.put(runId, run);
  }

  /**
   * Run {@code runId} reported: its minutes are spent, and a tree that does not break counts toward
   * the flake rate CI showed this queue.
   */
  void ended(String runId, Instant now) {
    TeamWorld.Run run = outcomes.remove(runId);
    if (running.containsKey(runId) && run != null && !run.breaks()) {
      cleanRuns++;
      flakedRuns += run.flaked() ? 1 : 0;
    }
    if (run != null && !run.breaks() && run.flaked()) {
      ciReds.put(runId, run);
    }
    charge(runId, now);
  }

  /** Run {@code runId} was cancelled: it is charged until now (a report after it is not). */
  void cancelled(String runId, Instant now) {
    outcomes.remove(runId);
    charge(runId, now);
  }

  private void charge(String runId, Instant now) {
    Instant start = running.remove(runId);
    if (start != null) {
      ciMillis += Duration.between(start, now).toMillis();
    }
  }

  /** The figures when the run stops at {@code now}, having merged {@code merged} PRs. */
  Figures close(Instant now, int merged) {
    List<Duration> times = new ArrayList<>(goodTimes);
    int open = 0;
    for (Map.Entry<Long, Instant> waiting : goodSince.entrySet()) {
      if (world.partners(waiting.getKey()).isEmpty()) {
        times.add(Duration.between(waiting.getValue(), now));
        open++;
      }
    }
    running.values().forEach(start -> ciMillis += Duration.between(start, now).toMillis());
    running.clear();
    times.sort(Duration::compareTo);
    return new Figures(
        hoursAt(times, 50),
        hoursAt(times, 95),
        merged == 0 ? 0 : ciMillis / 60_000.0 / merged,
        goodPrs + open,
        open,
        failedGood.size(),
        failedInOutages,
        failedByFlakyTests,
        cleanRuns == 0 ? 0 : flakedRuns / (double) cleanRuns,
        world.measuredAuc(),
        unstableAt,
        arrived,
        retested);
  }

  private static double hoursAt(List<Duration> sorted, int p) {
    if (sorted.isEmpty()) {
      return 0;
    }
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, index)).toSeconds() / 3600.0;
  }
}
