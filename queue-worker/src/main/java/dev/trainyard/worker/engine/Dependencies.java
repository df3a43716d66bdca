package dev.trainyard.worker.engine;

import dev.trainyard.common.command.QueueCommand.SubmitPullRequest;
import dev.trainyard.common.queue.PrState;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Dependencies between the PRs of a queue (API.md §2 {@code dependsOn}, {@code Depends-On: #n}): a
 * PR is never tested ahead of, nor landed before, what it depends on. A PR is startable once each
 * PR it depends on has landed or is in a run of the chain: its own run is then built behind that
 * one (a lane shares both in parallel mode, {@link Lanes#overlaps}) and lands after it.
 */
public final class Dependencies {
  private Dependencies() {}

  /**
   * Why a submit's {@code dependsOn} cannot be taken: it names the PR itself, or closes a cycle
   * with the dependencies of the PRs in the queue.
   */
  static Optional<Rejection> check(QueueAggregate state, SubmitPullRequest submit) {
    List<Long> named = submit.dependsOn();
    if (named == null) {
      return Optional.empty();
    }
    if (named.contains(submit.prNumber())) {
      return Optional.of(
          Rejection.invalidState("dependsOn names pull request " + submit.prNumber() + " itself"));
    }
    Map<Long, List<Long>> graph = graph(state);
    graph.put(submit.prNumber(), named);
    return cycleThrough(graph, submit.prNumber())
        .map(
            cycle ->
                Rejection.invalidState(
                    "dependsOn would make a cycle of dependencies: " + describe(cycle)));
  }

  /**
   * Why {@code e} cannot be ready for its dependencies: one is not in the queue (nor landed), or
   * they form a cycle that {@code e}, the newest PR of it, closed (the source host declared it).
   */
  public static Optional<String> problem(QueueAggregate state, Entry e) {
    List<Long> dependencies = e.unlandedDependencies();
    if (dependencies.isEmpty()) {
      return Optional.empty(); // nothing to wait for, and no cycle goes through it
    }
    for (long n : dependencies) {
      if (state.activeEntry(n).isEmpty() && !landed(state, n)) {
        return Optional.of(missing(state, e, n));
      }
    }
    Map<Long, List<Long>> graph = graph(state);
    return cycleThrough(graph, e.prNumber())
        .filter(cycle -> newest(state, cycle) == e.prNumber())
        .map(
            cycle ->
                "its dependencies make a cycle ("
                    + describe(cycle)
                    + "); remove a Depends-On line or cancel one of them");
  }

  /**
   * Why dependency {@code n}, not in this queue, holds {@code e}: in the host's words if it said;
   * the PR {@code e} is stacked on is open on whatever base its own stack has.
   */
  private static String missing(QueueAggregate state, Entry e, long n) {
    boolean stacked = Long.valueOf(n).equals(e.pr().stackedOn());
    if (stacked) {
      return "it is stacked on pull request #"
          + n
          + ", which is not in the queue; submit it too, or submit this one with its stack";
    }
    String which = "it depends on pull request #" + n;
    return e.pr()
        .hostDependency(n)
        .map(
            d -> {
              if (!d.open()) {
                return which
                    + ", which was closed without merging; reopen it or remove the dependency";
              }
              if (d.baseBranch() != null && !d.baseBranch().equals(state.key().branch())) {
                return which
                    + ", which targets "
                    + d.baseBranch()
                    + " (another queue); it is ready once #"
                    + n
                    + " has merged";
              }
              return which + ", which is not in the queue; submit it too";
            })
        .orElse(which + ", which is not in the queue; submit it too");
  }

  /**
   * A dependency of {@code e} that is not in the queue and whose last submission failed or was
   * cancelled: {@code e} is cancelled with {@code DEPENDENCY_FAILED} (a PR submitted again after a
   * fix is waited for only when it is submitted before the PRs that depend on it).
   */
  static Optional<Long> failed(QueueAggregate state, Entry e) {
    for (long n : e.unlandedDependencies()) {
      boolean failed =
          state.activeEntry(n).isEmpty()
              && lastConcluded(state, n)
                  .filter(c -> c.state() == PrState.FAILED || c.state() == PrState.CANCELLED)
                  .isPresent();
      if (failed) {
        return Optional.of(n);
      }
    }
    return Optional.empty();
  }

  /** Every PR {@code e} depends on has landed or is in a run of the chain. */
  static boolean startable(QueueAggregate state, Entry e) {
    for (long n : e.unlandedDependencies()) {
      boolean inChain =
          state
              .activeEntry(n)
              .map(Entry::testRunId)
              .flatMap(run -> state.runs().live(run))
              .filter(run -> !run.bisection())
              .isPresent();
      if (!inChain && !landed(state, n)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The PRs {@code e} still waits for: its dependencies that have not landed (a PR submitted after
   * its dependency landed names it without having seen it land).
   */
  static List<Long> outstanding(QueueAggregate state, Entry e) {
    List<Long> dependencies = e.unlandedDependencies();
    return dependencies.isEmpty()
        ? dependencies
        : dependencies.stream().filter(n -> !landed(state, n)).toList();
  }

  /** Whether {@code a} depends on {@code b} or {@code b} on {@code a}, while not landed. */
  static boolean related(Entry a, Entry b) {
    return a.unlandedDependencies().contains(b.prNumber())
        || b.unlandedDependencies().contains(a.prNumber());
  }

  /** PR {@code n} is not in the queue and its last submission merged. */
  static boolean landed(QueueAggregate state, long n) {
    return state.activeEntry(n).isEmpty()
        && lastConcluded(state, n).filter(c -> c.state() == PrState.MERGED).isPresent();
  }

  private static Optional<Entry> lastConcluded(QueueAggregate state, long n) {
    return state.concluded().stream().filter(c -> c.prNumber() == n).findFirst();
  }

  private static Map<Long, List<Long>> graph(QueueAggregate state) {
    Map<Long, List<Long>> graph = new HashMap<>();
    for (Entry x : state.entries()) {
      graph.put(x.prNumber(), x.unlandedDependencies());
    }
    return graph;
  }

  /** A path from {@code start} back to itself along the dependencies, if there is one. */
  private static Optional<List<Long>> cycleThrough(Map<Long, List<Long>> graph, long start) {
    Deque<List<Long>> paths = new ArrayDeque<>();
    paths.push(List.of(start));
    Set<Long> seen = new HashSet<>();
    while (!paths.isEmpty()) {
      List<Long> path = paths.pop();
      for (long next : graph.getOrDefault(path.get(path.size() - 1), List.of())) {
        List<Long> longer = new ArrayList<>(path);
        longer.add(next);
        if (next == start) {
          return Optional.of(longer);
        }
        if (seen.add(next)) {
          paths.push(longer);
        }
      }
    }
    return Optional.empty();
  }

  private static long newest(QueueAggregate state, List<Long> cycle) {
    return cycle.stream()
        .map(state::activeEntry)
        .flatMap(Optional::stream)
        .max(Comparator.comparingLong(Entry::sequence))
        .map(Entry::prNumber)
        .orElse(-1L);
  }

  private static String describe(List<Long> cycle) {
    return cycle.stream().map(n -> "#" + n).collect(Collectors.joining(" → "));
  }
}
