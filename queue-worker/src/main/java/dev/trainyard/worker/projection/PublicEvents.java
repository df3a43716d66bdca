package dev.trainyard.worker.projection;

import dev.trainyard.common.event.PullRequestEvent;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.worker.engine.Entry;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.QueueEvent;
import dev.trainyard.worker.engine.QueueEvent.PullRequestCancelled;
import dev.trainyard.worker.engine.QueueEvent.PullRequestQueued;
import dev.trainyard.worker.engine.QueueEvent.PullRequestSubmitted;
import dev.trainyard.worker.engine.QueueEvent.TestBranchBuilt;
import dev.trainyard.worker.engine.QueueEvent.TestRunCancelled;
import dev.trainyard.worker.engine.QueueEvent.TestRunFailed;
import dev.trainyard.worker.engine.QueueEvent.TestRunMerged;
import dev.trainyard.worker.engine.QueueEvent.TestRunWentRed;
import dev.trainyard.worker.engine.Reasons;
import dev.trainyard.worker.engine.TestRun;
import java.time.Instant;
import java.util.List;

/**
 * Maps engine events to the {@code pull_request.*} bodies of API.md §7, one per PR the event moved.
 */
public final class PublicEvents {
  private final String publicUrl;

  public PublicEvents(String publicUrl) {
    this.publicUrl =
        publicUrl.endsWith("/") ? publicUrl.substring(0, publicUrl.length() - 1) : publicUrl;
  }

  /** The reason field an event type carries (API.md §7); at most one is set. */
  private record Why(
      String submitted, String queued, String failure, String cancellation, String merged) {
    static Why none() {
      return new Why(null, null, null, null, null);
    }

    static Why queued(String reason) {
      return new Why(null, reason, null, null, null);
    }

    static Why failure(String reason) {
      return new Why(null, null, reason, null, null);
    }
  }

  /**
   * @param state the queue after the event, where the entries (or their concluded form) are found
   */
  public List<PullRequestEvent> toPublic(QueueAggregate state, QueueEvent event, Instant now) {
    if (event instanceof PullRequestSubmitted e) {
      Why why = new Why("API_REQUESTED", null, null, null, null);
      return List.of(body(state, entry(state, e.entry().id()), "submitted", now, why));
    } else if (event instanceof PullRequestQueued e) {
      return List.of(
          body(state, entry(state, e.entryId()), "queued", now, Why.queued(e.queuedReason())));
    } else if (event instanceof PullRequestCancelled e) {
      Why why = new Why(null, null, null, e.reason().name(), null);
      return List.of(body(state, entry(state, e.entryId()), "canceled", now, why));
    } else if (event instanceof TestBranchBuilt e) {
      return perEntry(state, e.runId(), "testing", now, Why.none());
    } else if (event instanceof TestRunWentRed e) {
      return perEntry(state, e.runId(), "pending_failure", now, Why.failure(e.reason()));
    } else if (event instanceof TestRunFailed e) {
      return perEntry(state, e.runId(), "failed", now, Why.failure(e.reason()));
    } else if (event instanceof TestRunMerged e) {
      Why why = new Why(null, null, null, null, Reasons.MERGE_GRAPH_MERGE);
      return perEntry(state, e.runId(), "merged", now, why);
    } else if (event instanceof TestRunCancelled e) {
      // the run's PRs still queued are waiting for a new run
      TestRun run = state.runs().any(e.runId()).orElseThrow();
      return run.entryIds().stream()
          .flatMap(id -> state.entry(id).stream())
          .map(x -> body(state, x, "queued", now, Why.queued(e.queuedReason())))
          .toList();
    }
    return List.of();
  }

  private List<PullRequestEvent> perEntry(
      QueueAggregate state, String runId, String action, Instant now, Why why) {
    TestRun run = state.runs().any(runId).orElseThrow();
    return run.entryIds().stream()
        .flatMap(id -> state.anyEntry(id).stream())
        .map(x -> body(state, x, action, now, why))
        .toList();
  }

  private static Entry entry(QueueAggregate state, String entryId) {
    return state.anyEntry(entryId).orElseThrow();
  }

  private PullRequestEvent body(
      QueueAggregate state, Entry e, String action, Instant now, Why why) {
    QueueKey key = state.key();
    TestRun run =
        e.testRunId() == null || action.equals("queued")
            ? null
            : state.runs().any(e.testRunId()).orElse(null);
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
        run == null ? null : run.branch(key.branch()),
        run == null ? null : run.headSha(),
        run == null ? null : e.prNumber(),
        run == null ? null : Boolean.FALSE,
        run == null || action.equals("pending_failure") || action.equals("merged")
            ? null
            : Boolean.FALSE,
        why.submitted(),
        why.queued(),
        why.failure(),
        why.cancellation(),
        why.merged());
  }

  /** Where a person reads about the PR; also the {@code prUrl} of testing details. */
  public String detailsUrl(QueueKey key, long prNumber) {
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
