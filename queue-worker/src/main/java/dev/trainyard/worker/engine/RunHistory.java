package dev.trainyard.worker.engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The queue's recent chain runs, as its estimates read them: how long each took from start to
 * verdict ({@code durationsMillis}) and whether it went red ({@code reds}), newest last, at most
 * {@value #KEPT} of each. It lives in the aggregate, so every worker that loads the queue, and a
 * replay, reads the same history.
 */
public record RunHistory(List<Long> durationsMillis, List<Boolean> reds) {
  /** How many runs are kept: enough for a stable median, few enough to follow a change. */
  public static final int KEPT = 30;

  public static final RunHistory EMPTY = new RunHistory(List.of(), List.of());

  public RunHistory {
    durationsMillis = durationsMillis == null ? List.of() : List.copyOf(durationsMillis);
    reds = reds == null ? List.of() : List.copyOf(reds);
  }

  /** This history with one more verdict: a run that took {@code took}, red or not. */
  RunHistory with(Duration took, boolean red) {
    return new RunHistory(append(durationsMillis, Math.max(0, took.toMillis())), append(reds, red));
  }

  /** The median time from a run's start to its verdict; empty before the first verdict. */
  public Optional<Duration> medianDuration() {
    if (durationsMillis.isEmpty()) {
      return Optional.empty();
    }
    List<Long> sorted = durationsMillis.stream().sorted().toList();
    int n = sorted.size();
    long median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    return Optional.of(Duration.ofMillis(median));
  }

  /** The share of recent runs that went red; 0 before the first verdict. */
  public double failureRate() {
    return reds.isEmpty() ? 0 : reds.stream().filter(r -> r).count() / (double) reds.size();
  }

  private static <T> List<T> append(List<T> list, T value) {
    List<T> next = new ArrayList<>(list.size() + 1);
    next.addAll(list.size() >= KEPT ? list.subList(list.size() - KEPT + 1, list.size()) : list);
    next.add(value);
    return next;
  }
}
