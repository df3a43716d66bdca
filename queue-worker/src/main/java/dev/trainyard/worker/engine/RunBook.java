package dev.trainyard.worker.engine;

import java.util.List;
import java.util.Optional;

/**
 * The test runs of a queue. {@code live} holds the chain in build order (each run is built on the
 * one before it, and they land in that order) and the bisection runs of failed batches. {@code
 * finished} holds concluded runs until their branch is deleted (newest first); {@code unclaimed}
 * the statuses of commits that are no run's head yet (oldest first); {@code landed} the last run
 * that merged.
 */
public record RunBook(
    List<TestRun> live, List<TestRun> finished, List<UnclaimedStatus> unclaimed, Landed landed) {

  /** How many statuses of unknown commits a queue keeps; the oldest go first. */
  public static final int MAX_UNCLAIMED = 256;

  /**
   * How many concluded runs wait for their branch to be deleted; beyond, the oldest are dropped.
   */
  public static final int MAX_FINISHED = 100;

  public static final RunBook EMPTY = new RunBook(List.of(), List.of(), List.of(), null);

  public RunBook {
    live = live == null ? List.of() : List.copyOf(live);
    finished = finished == null ? List.of() : List.copyOf(finished);
    unclaimed = unclaimed == null ? List.of() : List.copyOf(unclaimed);
  }

  public Optional<TestRun> live(String runId) {
    return live.stream().filter(r -> r.id().equals(runId)).findFirst();
  }

  public Optional<TestRun> any(String runId) {
    return live(runId).or(() -> finished.stream().filter(r -> r.id().equals(runId)).findFirst());
  }

  /**
   * The live runs that land, in build order: each is built on the one before it. Bisection runs are
   * live but outside the chain.
   */
  public List<TestRun> chain() {
    return live.stream().filter(r -> !r.bisection()).toList();
  }

  /** The live bisection runs, oldest first. */
  public List<TestRun> bisecting() {
    return live.stream().filter(TestRun::bisection).toList();
  }

  public Optional<TestRun> liveContaining(String entryId) {
    return live.stream().filter(r -> r.contains(entryId)).findFirst();
  }
}
