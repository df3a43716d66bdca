package dev.trainyard.worker.projection;

import dev.trainyard.common.event.PullRequestEvent;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.worker.engine.Entry;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.QueueEvent;
import dev.trainyard.worker.engine.QueueEvent.PullRequestCancelled;
import dev.trainyard.worker.engine.QueueEvent.PullRequestQueued;
import dev.trainyard.worker.engine.QueueEvent.PullRequestSubmitted;
import java.time.Instant;
import java.util.Optional;

/** Maps engine events to the {@code pull_request.*} bodies of API.md §7 (when they have one). */
public final class PublicEvents {
  private final String publicUrl;

  public PublicEvents(String publicUrl) {
    this.publicUrl =
        publicUrl.endsWith("/") ? publicUrl.substring(0, publicUrl.length() - 1) : publicUrl;
  }

  /**
   * @param state the queue after the event, where the entry (or its concluded form) is found
   */
  public Optional<PullRequestEvent> toPublic(QueueAggregate state, QueueEvent event, Instant now) {
    if (event instanceof PullRequestSubmitted e) {
      return Optional.of(
          body(state, e.entry().id(), "submitted", now, "API_REQUESTED", null, null));
    } else if (event instanceof PullRequestQueued e) {
      return Optional.of(body(state, e.entryId(), "queued", now, null, e.queuedReason(), null));
    } else if (event instanceof PullRequestCancelled e) {
      return Optional.of(body(state, e.entryId(), "canceled", now, null, null, e.reason().name()));
    }
    return Optional.empty();
  }

  private PullRequestEvent body(
      QueueAggregate state,
      String entryId,
      String action,
      Instant now,
      String submittedReason,
      String queuedReason,
      String cancellationReason) {
    Entry e = state.entry(entryId).or(() -> state.concludedEntry(entryId)).orElseThrow();
    QueueKey key = state.key();
    return new PullRequestEvent(
        "pull_request." + action,
        action,
        e.state().wire(),
        e.pr().author(),
        detailsUrl(key, e.prNumber()),
        e.prNumber(),
        key.repo(),
        key.branch(),
        now,
        submittedReason,
        queuedReason,
        cancellationReason);
  }

  private String detailsUrl(QueueKey key, long prNumber) {
    return publicUrl
        + "/"
        + key.org()
        + "/merge-queue/"
        + key.repo().host()
        + "/"
        + key.repo().slug()
        + "/"
        + key.branch()
        + "/"
        + prNumber;
  }
}
