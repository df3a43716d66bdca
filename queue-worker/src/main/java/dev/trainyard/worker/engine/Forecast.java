package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.MergeWindow;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.QueueFreeze;
import dev.trainyard.common.view.QueueForecast;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Where each PR of a queue stands and when it is expected to land (API.md §2 {@code queuePosition},
 * {@code estimatedMergeAt}), from the queue's own recorded history ({@link RunHistory}: the median
 * time from a run's start to its verdict, the share of runs that went red), never from one
 * process's memory.
 *
 * <p>The line: the PRs in runs of the chain in chain order, then the others in queue order, each
 * after what it depends on. Two estimates, the later one taken: the pipeline replays the
 * speculation (the runs in flight end a median run after they started; the next runs, one PR or
 * {@code batchingMinSize} with batching, take the {@code concurrency} slots of each lane as they
 * free; a run lands after the one before it: the best the slots allow), and the queue's own pace
 * (the n-th in line lands n times the time per PR the queue took while busy, {@link
 * RunHistory#busyTimePerPr}). A landing waits for the end of a freeze and for the next merge
 * window; a freeze without an end, or a queue without history yet, leaves the estimate unknown. A
 * PR not ready takes no slot and no place in either estimate, and its own is unknown. The slots and
 * the batch size are the ones the self-tuning scheduler uses now, where it is on. Each PR's wait is
 * {@link WaitReasons}'.
 */
public final class Forecast {
  private Forecast() {}

  public static QueueForecast of(QueueAggregate state, Instant now) {
    List<Entry> line = line(state);
    List<Entry> shown = line.subList(0, Math.min(line.size(), QueueForecast.MAX_LINE));
    List<Long> numbers = new ArrayList<>();
    shown.forEach(e -> numbers.add(e.prNumber()));
    WaitReasons.Waits waits = WaitReasons.of(state, shown, now);
    Optional<Duration> median = state.history().medianDuration();
    QueueFreeze freeze = state.freeze();
    List<Instant> estimates;
    if (median.isEmpty() || (freeze != null && freeze.until() == null)) {
      estimates = Collections.nCopies(numbers.size(), null);
    } else {
      estimates = estimates(state, line, median.get(), now);
    }
    return QueueForecast.of(now, numbers, estimates, waits.codes(), waits.batchUntil())
        .withLearned(
            state.history().spend().minutesPerMerge().orElse(null),
            state.history().predictions().shownAuc().orElse(null),
            state.history().predictions().discriminates());
  }

  /** The PRs that have not concluded, in the order they are expected to land. */
  static List<Entry> line(QueueAggregate state) {
    Map<String, Entry> placed = new LinkedHashMap<>();
    for (TestRun run : state.runs().chain()) {
      run.entryIds().stream()
          .map(state::entry)
          .flatMap(Optional::stream)
          .forEach(e -> placed.put(e.id(), e));
    }
    List<Entry> rest = new ArrayList<>(state.inQueueOrder());
    rest.removeIf(e -> placed.containsKey(e.id()));
    Set<Long> inLine = new HashSet<>();
    placed.values().forEach(e -> inLine.add(e.prNumber()));
    // each pass places the PRs whose dependencies in the queue are placed; what is left of a
    // cycle goes last, in queue order
    boolean progress = true;
    while (!rest.isEmpty() && progress) {
      progress = false;
      for (Entry e : List.copyOf(rest)) {
        boolean waits =
            e.unlandedDependencies().stream()
                .anyMatch(n -> !inLine.contains(n) && state.activeEntry(n).isPresent());
        if (!waits) {
          placed.put(e.id(), e);
          inLine.add(e.prNumber());
          rest.remove(e);
          progress = true;
        }
      }
    }
    rest.forEach(e -> placed.put(e.id(), e));
    return new ArrayList<>(placed.values());
  }

  private static List<Instant> estimates(
      QueueAggregate state, List<Entry> line, Duration median, Instant now) {
    long lanes =
        Math.max(1, state.runs().chain().stream().filter(r -> Lanes.isHead(state, r)).count());
    // what the scheduler will use: the adaptive window and batch size where they are on
    long slots = Math.max(1, SelfTuning.concurrency(state.settings(), state.history())) * lanes;
    Optional<Duration> perPr = state.history().busyTimePerPr();
    int batch =
        state.settings().batch()
            ? (int)
                Math.max(
                    1,
                    SelfTuning.batchSize(
                        state.settings(),
                        state.history(),
                        state.settings().ciBudgetInForce() ? RunPlanner.waiting(state).size() : 0,
                        Batches.startable(state)))
            : 1;
    PriorityQueue<Instant> free = new PriorityQueue<>();
    Map<String, Instant> landsAt = new LinkedHashMap<>();
    Instant previous = now;
    for (TestRun run : state.runs().chain()) {
      Instant verdict = now;
      if (run.isUndecided()) {
        Instant expected = run.createdAt().plus(median);
        verdict = expected.isBefore(now) ? now : expected;
        free.add(verdict);
      }
      previous = later(previous, verdict);
      for (String id : run.entryIds()) {
        landsAt.put(id, previous);
      }
    }
    while (free.size() < slots) {
      free.add(now);
    }
    List<Instant> etas = new ArrayList<>();
    int inRun = 0;
    Instant runLands = previous;
    int position = 0;
    for (Entry e : line.subList(0, Math.min(line.size(), QueueForecast.MAX_LINE))) {
      Instant at = landsAt.get(e.id());
      if (at == null && e.state() == PrState.NOT_READY) {
        // it takes no slot and holds no place until it is ready, which nobody can forecast
        etas.add(null);
        continue;
      }
      position++;
      if (at == null) {
        if (inRun == 0) {
          Instant start = free.poll();
          Instant verdict = start.plus(median);
          free.add(verdict);
          runLands = later(previous, verdict);
          previous = runLands;
        }
        inRun = (inRun + 1) % batch;
        at = runLands;
      }
      if (perPr.isPresent()) {
        // the pipeline is what the slots allow at best; the rate the queue has landed PRs at
        // while busy carries what it loses to red runs, resets and bisection
        at = later(at, now.plus(perPr.get().multipliedBy(position)));
      }
      etas.add(gate(state, at).orElse(null));
    }
    return etas;
  }

  /** The first time at or after {@code at} the queue may land. */
  private static Optional<Instant> gate(QueueAggregate state, Instant at) {
    QueueFreeze freeze = state.freeze();
    Instant open = freeze != null && freeze.until().isAfter(at) ? freeze.until() : at;
    List<MergeWindow> windows = state.settings().mergeWindows();
    if (MergeWindow.anyOpen(windows, open)) {
      return Optional.of(open);
    }
    return MergeWindow.nextOpening(windows, open);
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }
}
