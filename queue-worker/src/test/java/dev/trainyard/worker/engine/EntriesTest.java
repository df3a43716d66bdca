package dev.trainyard.worker.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trainyard.common.queue.Priority;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A queue finds its entries by id and PR number, and orders them, as a linear search would. */
class EntriesTest {

  private final QueueAggregate queue =
      QueueFixture.queue()
          .submitted(1, Priority.LOW)
          .submitted(2)
          .submitted(3, Priority.URGENT)
          .submitted(4)
          .state();

  @Test
  void findsEveryEntryByIdAndNumberAsASearchWould() {
    for (Entry e : queue.entries()) {
      assertThat(queue.entry(e.id())).contains(e);
      assertThat(queue.activeEntry(e.prNumber())).contains(e);
    }
    assertThat(queue.entry("no-such-entry")).isEmpty();
    assertThat(queue.activeEntry(99)).isEmpty();
  }

  @Test
  void ordersByPriorityThenArrival() {
    assertThat(queue.inQueueOrder()).extracting(Entry::prNumber).containsExactly(3L, 2L, 4L, 1L);
    assertThat(queue.inQueueOrder())
        .isEqualTo(queue.entries().stream().sorted(QueueAggregate.QUEUE_ORDER).toList());
  }

  @Test
  void aQueueLoadedFromThePlainListOfTheStoreAnswersTheSameAndEqualsIt() {
    List<Entry> plain = new ArrayList<>(queue.entries());
    QueueAggregate rebuilt = queue.withStoredEntries(plain);
    assertThat(rebuilt).isEqualTo(queue);
    assertThat(rebuilt.inQueueOrder()).isEqualTo(queue.inQueueOrder());
    plain.clear();
    assertThat(rebuilt.entries()).hasSize(4);
  }

  @Test
  void isImmutable() {
    assertThatThrownBy(() -> queue.entries().add(queue.entries().get(0)))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> queue.inQueueOrder().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
