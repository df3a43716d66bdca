package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.QueueState;
import dev.trainyard.worker.engine.QueueEvent.BisectionRunStarted;
import dev.trainyard.worker.engine.QueueEvent.ImpactedTargetsRecorded;
import dev.trainyard.worker.engine.QueueEvent.ModeSwitchRequested;
import dev.trainyard.worker.engine.QueueEvent.ModeSwitched;
import dev.trainyard.worker.engine.QueueEvent.PullRequestCancelled;
import dev.trainyard.worker.engine.QueueEvent.PullRequestNotReady;
import dev.trainyard.worker.engine.QueueEvent.PullRequestObserved;
import dev.trainyard.worker.engine.QueueEvent.PullRequestQueued;
import dev.trainyard.worker.engine.QueueEvent.PullRequestResubmitted;
import dev.trainyard.worker.engine.QueueEvent.PullRequestSubmitted;
import dev.trainyard.worker.engine.QueueEvent.QueueCreated;
import dev.trainyard.worker.engine.QueueEvent.QueueDeleted;
import dev.trainyard.worker.engine.QueueEvent.QueueUpdated;
import dev.trainyard.worker.engine.QueueEvent.SourceProblemChanged;
import dev.trainyard.worker.engine.QueueEvent.StatusReported;
import dev.trainyard.worker.engine.QueueEvent.TargetMoved;
import dev.trainyard.worker.engine.QueueEvent.TestBranchBuilt;
import dev.trainyard.worker.engine.QueueEvent.TestBranchConflicted;
import dev.trainyard.worker.engine.QueueEvent.TestBranchDeleted;
import dev.trainyard.worker.engine.QueueEvent.TestRunBisected;
import dev.trainyard.worker.engine.QueueEvent.TestRunCancelled;
import dev.trainyard.worker.engine.QueueEvent.TestRunCleared;
import dev.trainyard.worker.engine.QueueEvent.TestRunFailed;
import dev.trainyard.worker.engine.QueueEvent.TestRunMerged;
import dev.trainyard.worker.engine.QueueEvent.TestRunPassed;
import dev.trainyard.worker.engine.QueueEvent.TestRunRescued;
import dev.trainyard.worker.engine.QueueEvent.TestRunStarted;
import dev.trainyard.worker.engine.QueueEvent.TestRunWentRed;
import dev.trainyard.worker.engine.QueueEvent.TestsRestarted;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The only place queue state changes: {@code apply(state, event)} returns the next state. It
 * decides nothing; every rule lives in {@link QueueEngine}.
 */
public final class EventApplier {
  private EventApplier() {}

  /** Applies one event; {@code state} is null for a queue that does not exist. */
  public static QueueAggregate apply(QueueAggregate state, QueueEvent event) {
    // Java 17 has no pattern switch; EventApplierTest checks every permitted event type is handled.
    if (event instanceof QueueCreated e) {
      return QueueAggregate.created(e.key(), e.settings(), e.at());
    } else if (event instanceof QueueUpdated e) {
      QueueAggregate updated = state.with(e.state(), e.settings());
      return e.state() == QueueState.PAUSED
          ? updated.withHistory(updated.history().idle())
          : updated;
    } else if (event instanceof QueueDeleted) {
      return null;
    } else if (event instanceof SourceProblemChanged e) {
      return state.withSourceProblem(e.problem());
    } else if (event instanceof QueueEvent.RequiredChecksChanged e) {
      return state.withRequiredChecks(e.checks());
    } else if (event instanceof PullRequestSubmitted e) {
      return submitted(state, e);
    } else if (event instanceof PullRequestResubmitted e) {
      return mapEntry(
          state,
          e.entryId(),
          x ->
              x.withPriority(
                  e.priority(),
                  e.priorityDefaulted(),
                  e.noBatch(),
                  e.dependsOn(),
                  e.stack(),
                  e.predictedRisk()));
    } else if (event instanceof QueueEvent.QueueFrozen e) {
      return state.withFreeze(e.freeze());
    } else if (event instanceof QueueEvent.QueueUnfrozen) {
      return state.withFreeze(null);
    } else if (event instanceof QueueEvent.LandingHoldChanged e) {
      // time landing is held (a freeze, a closed window) is not the queue's pace: the forecast
      // waits for the gate on its own
      QueueAggregate held = state.withLandingHold(e.hold());
      return e.hold() == null ? held : held.withHistory(held.history().idle());
    } else if (event instanceof PullRequestQueued e) {
      return mapEntry(state, e.entryId(), x -> x.withState(PrState.PENDING, e.at()));
    } else if (event instanceof PullRequestNotReady e) {
      return mapEntry(state, e.entryId(), x -> x.withState(PrState.NOT_READY, e.at()));
    } else if (event instanceof PullRequestCancelled e) {
      return conclude(state, e.entryId(), PrState.CANCELLED, e.at());
    } else if (event instanceof ImpactedTargetsRecorded e) {
      return targetsRecorded(state, e);
    } else if (event instanceof TestsRestarted) {
      return state;
    } else if (event instanceof PullRequestObserved e) {
      return mapEntry(state, e.entryId(), x -> x.withObservation(e.pr(), e.mergeability()));
    }
    return applyRunEvent(state, event);
  }

  private static QueueAggregate applyRunEvent(QueueAggregate state, QueueEvent event) {
    if (event instanceof ModeSwitchRequested e) {
      return state.withSwitchingTo(e.mode());
    } else if (event instanceof ModeSwitched e) {
      QueueState next =
          state.state() == QueueState.SWITCHING_MODES ? QueueState.RUNNING : state.state();
      return state.with(next, state.settings().withMode(e.mode())).withSwitchingTo(null);
    } else if (event instanceof TestRunStarted e) {
      return RunApplier.started(state, e);
    } else if (event instanceof TestBranchBuilt e) {
      return RunApplier.built(state, e);
    } else if (event instanceof TestBranchConflicted e) {
      return RunApplier.conflicted(state, e.runId());
    } else if (event instanceof StatusReported e) {
      return RunApplier.statusReported(state, e);
    } else if (event instanceof TestRunPassed e) {
      return RunApplier.passed(state, e.runId(), e.at());
    } else if (event instanceof TestRunWentRed e) {
      return RunApplier.wentRed(state, e.runId(), e.reason(), e.at());
    } else if (event instanceof TestRunFailed e) {
      return RunApplier.concluded(
          state, e.runId(), RunState.FAILED, e.reason(), PrState.FAILED, e.at());
    } else if (event instanceof TestRunMerged e) {
      return RunApplier.landed(state, e.runId(), e.targetSha(), e.at()).withLandingProblem(null);
    } else if (event instanceof QueueEvent.TestRunPartlyMerged e) {
      return RunApplier.partlyLanded(state, e.runId(), e.merged(), e.targetSha(), e.at());
    } else if (event instanceof QueueEvent.LandingRefused e) {
      return state.withLandingProblem(e.message());
    } else if (event instanceof QueueEvent.TestResultsRecorded e) {
      return RunApplier.testResults(state, e);
    } else if (event instanceof QueueEvent.FlakyFailureForgiven e) {
      return RunApplier.forgiven(state, e.runId());
    } else if (event instanceof TestRunCancelled e) {
      return RunApplier.cancelled(state, e.runId(), e.at());
    } else if (event instanceof QueueEvent.DirectMergeDeclined e) {
      return RunApplier.directMergeDeclined(state, e.runId(), e.at());
    } else if (event instanceof TestRunBisected e) {
      return RunApplier.bisected(state, e);
    } else if (event instanceof BisectionRunStarted e) {
      return RunApplier.bisectionStarted(state, e.runId(), e.at());
    } else if (event instanceof QueueEvent.BisectionHalfPassed e) {
      return RunApplier.halfPassed(state, e.runId(), e.at());
    } else if (event instanceof TestRunCleared e) {
      return RunApplier.cleared(state, e.runId(), e.isolated(), e.at());
    } else if (event instanceof TestRunRescued e) {
      return RunApplier.rescued(state, e.runId(), e.byRunId(), e.at());
    } else if (event instanceof TargetMoved e) {
      return state.withRuns(
          new RunBook(
              state.runs().live(),
              state.runs().finished(),
              state.runs().unclaimed(),
              new Landed("", e.targetSha())));
    } else if (event instanceof TestBranchDeleted e) {
      return RunApplier.branchDeleted(state, e.runId());
    }
    throw new IllegalArgumentException("no applier for " + event.getClass().getSimpleName());
  }

  /** Applies events in order, starting from {@code state}. */
  public static QueueAggregate applyAll(QueueAggregate state, List<QueueEvent> events) {
    QueueAggregate current = state;
    for (QueueEvent event : events) {
      current = apply(current, event);
    }
    return current;
  }

  private static QueueAggregate submitted(QueueAggregate state, PullRequestSubmitted e) {
    List<Entry> entries = new ArrayList<>(state.entries());
    entries.add(e.entry());
    QueueAggregate next = state.withEntries(entries, e.entry().sequence() + 1);
    return next.withTargetsBeforeSubmit(
        state.targetsBeforeSubmit().stream()
            .filter(t -> t.prNumber() != e.entry().prNumber())
            .toList());
  }

  private static QueueAggregate targetsRecorded(QueueAggregate state, ImpactedTargetsRecorded e) {
    if (e.entryId() != null) {
      return mapEntry(state, e.entryId(), x -> x.withImpactedTargets(e.targets()));
    }
    List<PendingTargets> pending = new ArrayList<>();
    for (PendingTargets t : state.targetsBeforeSubmit()) {
      if (t.prNumber() != e.prNumber()) {
        pending.add(t);
      }
    }
    pending.add(new PendingTargets(e.prNumber(), e.sha(), e.targets()));
    int overflow = pending.size() - QueueAggregate.MAX_TARGETS_BEFORE_SUBMIT;
    return state.withTargetsBeforeSubmit(pending.subList(Math.max(0, overflow), pending.size()));
  }

  static QueueAggregate conclude(
      QueueAggregate state, String entryId, PrState finalState, Instant at) {
    Entry entry = state.entry(entryId).orElseThrow().withState(finalState, at);
    List<Entry> entries = state.entries().stream().filter(x -> !x.id().equals(entryId)).toList();
    List<Entry> concluded = new ArrayList<>();
    concluded.add(entry);
    concluded.addAll(state.concluded());
    return state.withConcluded(
        entries, concluded.subList(0, Math.min(concluded.size(), QueueAggregate.MAX_CONCLUDED)));
  }

  private static QueueAggregate mapEntry(
      QueueAggregate state, String entryId, UnaryOperator<Entry> change) {
    List<Entry> entries =
        state.entries().stream().map(x -> x.id().equals(entryId) ? change.apply(x) : x).toList();
    return state.withEntries(entries, state.nextSequence());
  }
}
