package dev.trainyard.worker.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.queue.QueueState;
import dev.trainyard.common.view.EntryTags;
import dev.trainyard.worker.store.OutboxEvent;
import dev.trainyard.worker.store.QueueStalls;
import dev.trainyard.worker.store.StoredQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * When a queue's ready pull requests began to wait without one concluding ({@link QueueStalls}):
 * each row a state the engine reached, the wait stored before, the events of the version and the
 * wait it stores.
 */
class QueueStallsTest {
  private static final Instant BEFORE = QueueFixture.T0.minus(Duration.ofHours(2));

  static Stream<Arguments> rows() {
    return Stream.of(
        row("no pull request", QueueFixture::queue, null, List.of(), null),
        row("only a PR not ready", () -> QueueFixture.queue().submitted(1), null, List.of(), null),
        row(
            "a PR ready starts the wait",
            () -> QueueFixture.queue().queued(1),
            null,
            List.of(),
            QueueFixture.T0),
        row(
            "testing, CI silent: the wait goes on",
            () -> QueueFixture.queue().queued(1).builtAll(),
            BEFORE,
            List.of("pull_request.testing"),
            BEFORE),
        row(
            "a PR merged starts it again",
            () -> QueueFixture.queue().queued(1, 2).builtAll(),
            BEFORE,
            List.of("pull_request.merged"),
            QueueFixture.T0),
        row(
            "a PR failed starts it again",
            () -> QueueFixture.queue().queued(1, 2).builtAll(),
            BEFORE,
            List.of("pull_request.failed"),
            QueueFixture.T0),
        row(
            "a run red starts it again",
            () -> QueueFixture.queue().queued(1, 2).builtAll(),
            BEFORE,
            List.of("pull_request.pending_failure"),
            QueueFixture.T0),
        row(
            "paused: nothing to wait for",
            () -> QueueFixture.queue().queued(1).state(QueueState.PAUSED),
            BEFORE,
            List.of(),
            null),
        row(
            "frozen: nothing to wait for",
            () -> QueueFixture.queue().queued(1).frozen(null),
            BEFORE,
            List.of(),
            null),
        row("deleted", QueueFixture::absent, BEFORE, List.of(), null));
  }

  private static Arguments row(
      String name,
      Supplier<QueueFixture> queue,
      Instant waitingBefore,
      List<String> events,
      Instant expected) {
    return Arguments.of(name, queue, waitingBefore, events, expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void theWaitOfAVersion(
      String name,
      Supplier<QueueFixture> queue,
      Instant waitingBefore,
      List<String> events,
      Instant expected) {
    StoredQueue before =
        new StoredQueue(
            "q",
            "acme-org",
            1,
            null,
            null,
            null,
            List.of(),
            null,
            Map.of(),
            0,
            false,
            EntryTags.NONE,
            waitingBefore);
    List<OutboxEvent> written =
        events.stream().map(type -> new OutboxEvent("e", type, "{}", null)).toList();
    assertThat(QueueStalls.waitingSince(before, queue.get().state(), written, QueueFixture.T0))
        .isEqualTo(expected);
  }
}
