package dev.trainyard.worker.projection;

import dev.trainyard.common.event.PublicEvent;
import dev.trainyard.common.event.PullRequestBatchEvent;
import dev.trainyard.common.event.PullRequestEvent;
import dev.trainyard.common.event.QueueFreezeEvent;
import dev.trainyard.common.event.QueueUpdatedEvent;
import dev.trainyard.common.net.PathSegments;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.worker.engine.Entry;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.QueueEvent;
import dev.trainyard.worker.engine.QueueEvent.PullRequestCancelled;
import dev.trainyard.worker.engine.QueueEvent.PullRequestQueued;
import dev.trainyard.worker.engine.QueueEvent.PullRequestSubmitted;
import dev.trainyard.worker.engine.QueueEvent.TestBranchBuilt;
import dev.trainyard.worker.engine.QueueEvent.TestRunBisected;
import dev.trainyard.worker.engine.QueueEvent.TestRunCancelled;
import dev.trainyard.worker.engine.QueueEvent.TestRunCleared;
import dev.trainyard.worker.engine.QueueEvent.TestRunFailed;
import dev.trainyard.worker.engine.QueueEvent.TestRunMerged;
import dev.trainyard.worker.engine.QueueEvent.TestRunWentRed;
import dev.trainyard.worker.engine.Reasons;
import dev.trainyard.worker.engine.TestRun;
import dev.trainyard.worker.engine.TestedPr;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Maps engine events to the {@code pull_request.*} bodies of API.md §7, one per PR the event moved,
 * a {@code pull_request_batch.*} body when the run carries a batch, {@code queue.frozen} / {@code
 * queue.unfrozen}, and {@code queue.updated} when {@code updateQueue} changed the queue.
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
  public List<PublicEvent> toPublic(QueueAggregate state, QueueEvent event, Instant now) {
    if (event instanceof PullRequestSubmitted e) {
      Why why = new Why("API_REQUESTED", null, null, null, null);
      return List.of(body(state, entry(state, e.entry().id()), "submitted", now, why));
    } else if (event instanceof PullRequestQueued e) {
      return List.of(
          body(state, entry(state, e.entryId()), "queued", now, Why.queued(e.queuedReason())));
    } else if (event instanceof PullRequestCancelled e) {
      Why why = new Why(null, null, null, e.reason().name(), null);
      return List.of(body(state, entry(state, e.entryId()), "canceled", now, why, e.causePr()));
    } else if (event instanceof TestBranchBuilt e) {
      return withBatch(state, e.runId(), "testing", now, Why.none());
    } else if (event instanceof TestRunWentRed e) {
      return withBatch(state, e.runId(), "pending_failure", now, Why.failure(e.reason()));
    } else if (event instanceof TestRunFailed e) {
      return withBatch(state, e.runId(), "failed", now, Why.failure(e.reason()));
    } else if (event instanceof TestRunMerged e) {
      boolean direct = state.runs().any(e.runId()).map(TestRun::direct).orElse(false);
      Why why =
          new Why(
              null,
              null,
              null,
              null,
              direct ? Reasons.MERGE_GRAPH_DIRECT_MERGE : Reasons.MERGE_GRAPH_MERGE);
      return withBatch(state, e.runId(), "merged", now, why);
    } else if (event instanceof QueueEvent.TestRunPartlyMerged e) {
      // the PRs the host merged are merged; the batch did not land whole, and the rest wait again
      TestRun run = state.runs().any(e.runId()).orElseThrow();
      Why merged = new Why(null, null, null, null, Reasons.MERGE_GRAPH_MERGE);
      List<PublicEvent> events = new ArrayList<>();
      run.prs().stream()
          .filter(pr -> e.merged().contains(pr.number()))
          .flatMap(pr -> state.anyEntry(pr.entryId()).stream())
          .forEach(x -> events.add(body(state, x, "merged", now, merged)));
      events.add(
          batch(state, run, "canceled", now, new Why(null, null, null, e.queuedReason(), null)));
      events.addAll(requeued(state, run, now, e.queuedReason()));
      return events;
    } else if (event instanceof TestRunBisected e
        && Reasons.TESTS_RESTARTED_FLAKY.equals(e.reason())) {
      // a bisection run red on flaky tests only is tested again: told as a chain run's retry is
      return cancelled(state, state.runs().any(e.runId()).orElseThrow(), now, e.reason());
    } else if (event instanceof TestRunBisected e) {
      // the batch failed; its PRs did not: they queue again, to be told apart by bisection
      TestRun run = state.runs().any(e.runId()).orElseThrow();
      List<PublicEvent> events = new ArrayList<>();
      events.add(batch(state, run, "failed", now, Why.failure(e.reason())));
      events.addAll(requeued(state, run, now, Reasons.BISECTION_REQUIRED));
      return events;
    } else if (event instanceof QueueEvent.DirectMergeDeclined e) {
      return requeued(state, state.runs().any(e.runId()).orElseThrow(), now, e.queuedReason());
    } else if (event instanceof TestRunCleared e) {
      TestRun run = state.runs().any(e.runId()).orElseThrow();
      return requeued(state, run, now, Reasons.BISECTION_REQUIRED);
    } else if (event instanceof QueueEvent.QueueFrozen e) {
      QueueKey key = state.key();
      return List.of(
          QueueFreezeEvent.frozen(
              key.repo(), key.branch(), now, e.freeze().reason(), e.freeze().until()));
    } else if (event instanceof QueueEvent.QueueUpdated e) {
      QueueKey key = state.key();
      return List.of(
          QueueUpdatedEvent.of(
              key.repo(), key.branch(), now, e.state().wire(), e.settings().version()));
    } else if (event instanceof QueueEvent.QueueUnfrozen e) {
      QueueKey key = state.key();
      return List.of(QueueFreezeEvent.unfrozen(key.repo(), key.branch(), now, e.expired()));
    } else if (event instanceof TestRunCancelled e) {
      return cancelled(state, state.runs().any(e.runId()).orElseThrow(), now, e.queuedReason());
    }
    return List.of();
  }

  /** A run stopped without a verdict on its PRs: a batch is cancelled, its PRs queue again. */
  private List<PublicEvent> cancelled(
      QueueAggregate state, TestRun run, Instant now, String queuedReason) {
    List<PublicEvent> events = new ArrayList<>();
    if (run.isBatch()) {
      events.add(batch(state, run, "canceled", now, new Why(null, null, null, queuedReason, null)));
    }
    events.addAll(requeued(state, run, now, queuedReason));
    return events;
  }

  /** The run's PRs still queued wait for a new run. */
  private List<PublicEvent> requeued(
      QueueAggregate state, TestRun run, Instant now, String reason) {
    List<PublicEvent> events = new ArrayList<>();
    run.entryIds().stream()
        .flatMap(id -> state.entry(id).stream())
        .forEach(x -> events.add(body(state, x, "queued", now, Why.queued(reason))));
    return events;
  }

  /** One event per PR of the run, and one for the batch when it carries more than one PR. */
  private List<PublicEvent> withBatch(
      QueueAggregate state, String runId, String action, Instant now, Why why) {
    TestRun run = state.runs().any(runId).orElseThrow();
    List<PublicEvent> events = new ArrayList<>();
    run.entryIds().stream()
        .flatMap(id -> state.anyEntry(id).stream())
        .forEach(x -> events.add(body(state, x, action, now, why)));
    if (run.isBatch()) {
      events.add(batch(state, run, action, now, why));
    }
    return events;
  }

  private static PullRequestBatchEvent batch(
      QueueAggregate state, TestRun run, String action, Instant now, Why why) {
    QueueKey key = state.key();
    List<Long> prs = run.prs().stream().map(TestedPr::number).toList();
    return new PullRequestBatchEvent(
        "pull_request_batch." + action,
        action,
        prs,
        prs,
        key.repo(),
        key.branch(),
        now,
        run.branch(key.branch()),
        run.headSha(),
        Boolean.TRUE,
        bisectionFlag(run, action),
        why.queued(),
        why.failure(),
        why.cancellation(),
        why.merged());
  }

  /**
   * {@code is_bisection} is carried by testing, pending_failure, failed and canceled only (API.md
   * §7).
   */
  private static Boolean bisectionFlag(TestRun run, String action) {
    boolean carried =
        action.equals("testing")
            || action.equals("pending_failure")
            || action.equals("failed")
            || action.equals("canceled");
    return run == null || !carried ? null : run.bisection();
  }

  private static Entry entry(QueueAggregate state, String entryId) {
    return state.anyEntry(entryId).orElseThrow();
  }

  private PullRequestEvent body(
      QueueAggregate state, Entry e, String action, Instant now, Why why) {
    return body(state, e, action, now, why, null);
  }

  private PullRequestEvent body(
      QueueAggregate state, Entry e, String action, Instant now, Why why, Long causePr) {
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
        run == null || run.direct() ? null : run.branch(key.branch()),
        run == null ? null : run.headSha(),
        run == null ? null : run.testPrNumber() != null ? run.testPrNumber() : e.prNumber(),
        run == null ? null : run.isBatch(),
        bisectionFlag(run, action),
        why.submitted(),
        why.queued(),
        why.failure(),
        why.cancellation(),
        why.merged(),
        causePr);
  }

  /** Where a person reads about the PR; also the {@code prUrl} of testing details. */
  public String detailsUrl(QueueKey key, long prNumber) {
    return publicUrl
        + "/"
        + key.org()
        + "/merge-queue/"
        + PathSegments.path(key.repo().host(), key.repo().owner(), key.repo().name(), key.branch())
        + "/"
        + prNumber;
  }
}
