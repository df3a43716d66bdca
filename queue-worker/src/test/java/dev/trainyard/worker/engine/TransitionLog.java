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
      current = next;
    }
  }

  static Set<String> seen() {
    return Set.copyOf(SEEN);
  }
}
