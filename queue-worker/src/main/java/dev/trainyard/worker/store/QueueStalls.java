package dev.trainyard.worker.store;

import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.QueueState;
import dev.trainyard.worker.engine.QueueAggregate;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Since when a queue's ready pull requests have waited without one concluding: what a stalled queue
 * is measured by ({@code trainyard_queues_stalled}). A queue that may not move — paused, draining,
 * frozen, outside its merge windows (the engine's landing hold) — or holds no ready pull request
 * (every one {@code not_ready}) waits for nothing of trainyard's: it has no such instant. A pull
 * request merged or failed, or a run red, is progress and starts the wait again; a run that tests
 * for ever (CI that never reports) is none.
 */
public final class QueueStalls {
  static final Set<String> PROGRESS =
      Set.of("pull_request.merged", "pull_request.failed", "pull_request.pending_failure");

  private QueueStalls() {}

  /**
   * The {@code waitingSince} of the version {@code state} that {@code events} lead to from {@code
   * before}, stored at {@code now}.
   */
  public static Instant waitingSince(
      StoredQueue before, QueueAggregate state, List<OutboxEvent> events, Instant now) {
    if (state == null
        || state.state() != QueueState.RUNNING
        || state.landingHold() != null
        || state.entries().stream().allMatch(e -> e.state() == PrState.NOT_READY)) {
      return null;
    }
    if (before.waitingSince() == null
        || events.stream().anyMatch(e -> PROGRESS.contains(e.type()))) {
      return now;
    }
    return before.waitingSince();
  }
}
