package dev.trainyard.worker.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.queue.PrState;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * Every PR state change the engine's tests made, checked against {@link PrTransitions} as it
 * happens; {@code TransitionCoverageTest} checks that every declared change was made.
 */
final class TransitionLog {
  private static final Set<String> SEEN = new ConcurrentSkipListSet<>();
  private static final Set<String> RUNS = new ConcurrentSkipListSet<>();
  private static final Set<String> QUEUES = new ConcurrentSkipListSet<>();

  private TransitionLog() {}

  static void record(QueueAggregate state, List<QueueEvent> events) {
    QueueAggregate current = state;
    for (QueueEvent event : events) {
      QueueAggregate next = EventApplier.apply(current, event);
      if (current != null && next != null) {
        for (Entry before : current.entries()) {
          Optional<Entry> after = next.anyEntry(before.id());
          PrState to = after.map(Entry::state).orElse(before.state());
          if (to != before.state()) {
            assertThat(PrTransitions.isAllowed(before.state(), to))
                .as("%s->%s by %s is declared", before.state(), to, event)
                .isTrue();
            SEEN.add(before.state() + "->" + to);
          }
        }
      }
      if (current == null && next != null) {
        QUEUES.add(TransitionTable.NEW + "->" + next.state());
      }
      if (current != null && next != null) {
        runs(current, next, event);
        if (current.state() != next.state()) {
          assertThat(QueueTransitions.TABLE.isAllowed(current.state(), next.state()))
              .as("queue %s->%s by %s is declared", current.state(), next.state(), event)
              .isTrue();
          QUEUES.add(current.state() + "->" + next.state());
        }
      }
      current = next;
    }
  }

  /**
   * The run state changes of one event: a run live before and live or finished after, and a run
   * that appears (from {@code new}).
   */
  private static void runs(QueueAggregate current, QueueAggregate next, QueueEvent event) {
    for (TestRun after : next.runs().live()) {
      if (current.runs().any(after.id()).isEmpty()) {
        runMove(TransitionTable.NEW, after.state().name(), event);
      }
    }
    for (TestRun before : current.runs().live()) {
      next.runs()
          .any(before.id())
          .filter(after -> after.state() != before.state())
          .ifPresent(after -> runMove(before.state().name(), after.state().name(), event));
    }
  }

  private static void runMove(String from, String to, QueueEvent event) {
    assertThat(RunTransitions.TABLE.isAllowed(from, to))
        .as("run %s->%s by %s is declared", from, to, event)
        .isTrue();
    RUNS.add(from + "->" + to);
  }

  static Set<String> seen() {
    return Set.copyOf(SEEN);
  }

  static Set<String> seenRuns() {
    return Set.copyOf(RUNS);
  }

  static Set<String> seenQueueStates() {
    return Set.copyOf(QUEUES);
  }
}
