package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.QueueMode;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** An urgent PR goes to the front: runs that would be ahead of it are cancelled. */
final class SkipTheLine implements PlanningRule {
  @Override
  public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
    return RunPlanner.canStart(state) ? skipTheLine(state, ctx.now()) : List.of();
  }

  /**
   * An urgent PR waiting for a run goes to the front: the first run behind it that has not passed,
   * and every run built on that one, are cancelled and re-planned. The runs holding what it depends
   * on stay, and so does every run ahead of them: it is built on them (cancelling one would make it
   * wait for its dependency, which would start again, and the line would be skipped again). In
   * parallel mode only a run of a lane it shares is in its way: one of another lane would start
   * again at once, while the urgent PR may still wait for its own lanes.
   */
  static List<QueueEvent> skipTheLine(QueueAggregate state, Instant now) {
    Optional<Entry> urgent =
        RunPlanner.waiting(state).stream().filter(Entry::skipTheLine).findFirst();
    if (urgent.isEmpty()) {
      return List.of();
    }
    List<TestRun> chain = state.runs().chain();
    List<Long> dependencies = urgent.get().unlandedDependencies();
    int kept = 0;
    for (int i = 0; i < chain.size(); i++) {
      if (chain.get(i).prs().stream().anyMatch(p -> dependencies.contains(p.number()))) {
        kept = i + 1;
      }
    }
    boolean parallel = state.settings().mode() == QueueMode.PARALLEL;
    for (TestRun run : chain.subList(kept, chain.size())) {
      Entry first = state.entry(run.entryIds().get(0)).orElseThrow();
      boolean behind = QueueAggregate.QUEUE_ORDER.compare(urgent.get(), first) < 0;
      if (behind
          && run.state() != RunState.PASSED
          && (!parallel || sharesLane(state, run, urgent.get()))) {
        return DropBrokenRuns.cancelAll(
            Lanes.from(chain, run), Reasons.SKIP_THE_LINE_INTERRUPTED, now);
      }
    }
    return List.of();
  }

  static boolean sharesLane(QueueAggregate state, TestRun run, Entry e) {
    return run.entryIds().stream()
        .map(state::entry)
        .flatMap(Optional::stream)
        .anyMatch(x -> Lanes.overlaps(x, e));
  }
}
