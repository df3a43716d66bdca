package dev.trainyard.worker.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.ImpactedTargets;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.queue.MergeWindow;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.Priority;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.QueueState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class EventApplierTest {

  /** Java 17 has no exhaustive pattern switch, so this stands in for the compiler's check. */
  @Test
  void everyEventTypeHasAnApplier() {
    // PR 12's run is under test: each run event is applied where its rule would emit it
    QueueFixture fixture = QueueFixture.queue().queued(12).built(12).submitted(13);
    for (Class<?> type : QueueEvent.class.getPermittedSubclasses()) {
      QueueEvent event = sample(type, fixture);
      QueueAggregate before = type == QueueEvent.QueueCreated.class ? null : fixture.state();
      if (type == QueueEvent.TestBranchDeleted.class) {
        before =
            EventApplier.apply(
                before,
                new QueueEvent.TestRunCancelled(fixture.runOf(12).id(), "X", fixture.now()));
      }
      if (type == QueueEvent.PullRequestNotReady.class) {
        // only a PR that waits for a run becomes not ready: PR 13 is made pending first
        String waiting = fixture.state().activeEntry(13).orElseThrow().id();
        before =
            EventApplier.apply(
                before,
                new QueueEvent.PullRequestQueued(waiting, "MERGE_ITEM_NOW_READY", fixture.now()));
      }
      if (type == QueueEvent.TestRunMerged.class || type == QueueEvent.TestRunPartlyMerged.class) {
        before = EventApplier.apply(before, sample(QueueEvent.TestRunPassed.class, fixture));
      }
      if (type == QueueEvent.BisectionRunStarted.class) {
        before = EventApplier.apply(before, sample(QueueEvent.TestRunBisected.class, fixture));
      }
      if (type == QueueEvent.QueueUnfrozen.class) {
        before = EventApplier.apply(before, sample(QueueEvent.QueueFrozen.class, fixture));
      }
      QueueAggregate after = EventApplier.apply(before, event);
      if (type != QueueEvent.QueueDeleted.class && type != QueueEvent.TestsRestarted.class) {
        assertThat(after).as(type.getSimpleName() + " changes the state").isNotEqualTo(before);
      }
    }
    assertThat(QueueEvent.class.getPermittedSubclasses()).hasSize(39);
  }

  /**
   * Seeded property test: random command sequences; replaying the recorded events from nothing
   * rebuilds exactly the state reached step by step, and the queue invariants hold throughout.
   */
  @Test
  void replayingEventsRebuildsTheSameState() {
    long seed = Long.getLong("trainyard.seed", System.nanoTime());
    Random random = new Random(seed);
    for (int run = 0; run < 200; run++) {
      QueueEngine engine = new QueueEngine();
      QueueAggregate state = null;
      List<QueueEvent> log = new ArrayList<>();
      java.time.Instant now = QueueFixture.T0;
      for (int step = 0; step < 60; step++) {
        now = now.plus(Duration.ofMinutes(random.nextInt(240)));
        QueueCommand command = randomCommand(random);
        Decision d =
            engine.decide(
                state,
                QueueFixture.KEY,
                command,
                new CommandContext(UUID.randomUUID().toString(), now));
        if (d.isAccepted()) {
          state = EventApplier.applyAll(state, d.events());
          log.addAll(d.events());
        }
        assertInvariants(state, seed);
      }
      assertThat(EventApplier.applyAll(null, log)).as("seed %d", seed).isEqualTo(state);
    }
  }

  private static void assertInvariants(QueueAggregate state, long seed) {
    if (state == null) {
      return;
    }
    Set<Long> numbers = new HashSet<>();
    for (Entry e : state.entries()) {
      assertThat(numbers.add(e.prNumber())).as("one active entry per PR, seed %d", seed).isTrue();
      assertThat(e.state().isFinal()).as("active entries are not final, seed %d", seed).isFalse();
    }
    state.concluded().forEach(e -> assertThat(e.state().isFinal()).isTrue());
    assertThat(state.entries().stream().map(Entry::sequence).distinct().count())
        .as("sequences are unique, seed %d", seed)
        .isEqualTo(state.entries().size());
  }

  private static QueueCommand randomCommand(Random random) {
    long pr = random.nextInt(6);
    return switch (random.nextInt(14)) {
      case 0 ->
          new QueueCommand.CreateQueue(
              random.nextBoolean() ? QueueMode.SINGLE : QueueMode.PARALLEL, 1 + random.nextInt(5));
      case 1 ->
          new QueueCommand.UpdateQueue(
              QueueFixture.patch(
                  QueueState.values()[random.nextInt(3)], null, (long) random.nextInt(3)));
      case 2 -> new QueueCommand.DeleteQueue();
      case 3, 4 ->
          new QueueCommand.SubmitPullRequest(
              pr,
              random.nextBoolean() ? null : Priority.ofValue(random.nextInt(256)),
              null,
              null,
              random.nextBoolean() ? null : List.of((long) random.nextInt(6)));
      case 11 ->
          new QueueCommand.FreezeQueue(
              "release",
              random.nextBoolean()
                  ? null
                  : QueueFixture.T0.plus(Duration.ofHours(random.nextInt(48))));
      case 12 -> new QueueCommand.UnfreezeQueue();
      case 13 ->
          new QueueCommand.UpdateQueue(
              QueueFixture.mergeWindows(
                  random.nextBoolean()
                      ? List.of()
                      : List.of(
                          MergeWindow.of(
                              0,
                              List.of("mon", "tue", "thu"),
                              "09:00",
                              "17:00",
                              "Europe/Berlin"))));
      case 5 -> new QueueCommand.CancelPullRequest(pr);
      case 6 -> new QueueCommand.RestartTests(pr);
      case 7 ->
          new QueueCommand.SetImpactedTargets(
              pr,
              "",
              random.nextBoolean()
                  ? ImpactedTargets.everything()
                  : new ImpactedTargets(false, 1, "d" + pr));
      case 8 ->
          random.nextInt(4) == 0
              ? QueueCommand.RecordPullRequestState.closed(pr)
              : new QueueCommand.RecordPullRequestState(
                  pr,
                  true,
                  "sha" + random.nextInt(3),
                  "t",
                  "a",
                  random.nextInt(4) == 0 ? "release" : "main",
                  null,
                  Mergeability.values()[random.nextInt(Mergeability.values().length)],
                  null,
                  List.of());
      case 9 ->
          new QueueCommand.RecordRequiredChecks(
              random.nextBoolean()
                  ? List.of()
                  : List.of(dev.trainyard.common.command.RequiredCheck.named("ci/test")),
              random.nextInt(4) == 0 ? "GitHub refused" : null);
      default -> new QueueCommand.Tick();
    };
  }

  private static QueueEvent sample(Class<?> type, QueueFixture fixture) {
    QueueAggregate s = fixture.state();
    Entry e = s.activeEntry(12).orElseThrow();
    java.time.Instant t = fixture.now().plusSeconds(60);
    if (type == QueueEvent.QueueCreated.class)
      return new QueueEvent.QueueCreated(QueueFixture.KEY, s.settings(), t);
    if (type == QueueEvent.QueueUpdated.class)
      return new QueueEvent.QueueUpdated(s.settings(), QueueState.PAUSED);
    if (type == QueueEvent.QueueDeleted.class) return new QueueEvent.QueueDeleted();
    if (type == QueueEvent.PullRequestSubmitted.class)
      return new QueueEvent.PullRequestSubmitted(
          new Entry(
              "other",
              13,
              9,
              Priority.LOW,
              false,
              false,
              e.state(),
              t,
              t,
              e.pr(),
              e.mergeability(),
              null,
              null,
              null,
              false,
              null,
              List.of(12L),
              List.of(),
              false,
              false,
              false,
              0.2));
    if (type == QueueEvent.PullRequestResubmitted.class)
      return new QueueEvent.PullRequestResubmitted(
          e.id(), Priority.HIGH, false, true, List.of(), false, 0.3);
    if (type == QueueEvent.QueueFrozen.class)
      return new QueueEvent.QueueFrozen(
          new dev.trainyard.common.queue.QueueFreeze("release", null), t);
    if (type == QueueEvent.QueueUnfrozen.class) return new QueueEvent.QueueUnfrozen(false, t);
    if (type == QueueEvent.DirectMergeDeclined.class)
      return new QueueEvent.DirectMergeDeclined(
          fixture.runOf(12).id(), Reasons.DIRECT_MERGE_NOT_POSSIBLE, t);
    if (type == QueueEvent.LandingHoldChanged.class)
      return new QueueEvent.LandingHoldChanged("outside every merge window");
    if (type == QueueEvent.PullRequestQueued.class)
      return new QueueEvent.PullRequestQueued(e.id(), "MERGE_ITEM_NOW_READY", t);
    if (type == QueueEvent.PullRequestNotReady.class)
      return new QueueEvent.PullRequestNotReady(s.activeEntry(13).orElseThrow().id(), t);
    if (type == QueueEvent.PullRequestCancelled.class)
      return new QueueEvent.PullRequestCancelled(
          e.id(), dev.trainyard.common.queue.CancellationReason.USER_REQUESTED, t);
    if (type == QueueEvent.ImpactedTargetsRecorded.class)
      return new QueueEvent.ImpactedTargetsRecorded(12, e.id(), "", ImpactedTargets.everything());
    if (type == QueueEvent.TestsRestarted.class) return new QueueEvent.TestsRestarted(e.id(), t);
    if (type == QueueEvent.PullRequestObserved.class) {
      return new QueueEvent.PullRequestObserved(
          e.id(),
          new PullRequestInfo("Add b", "abc", "main", "alice", null),
          Mergeability.MERGEABLE);
    }
    return runSample(type, fixture, t);
  }

  private static QueueEvent runSample(Class<?> type, QueueFixture fixture, java.time.Instant t) {
    String run = fixture.runOf(12).id();
    if (type == QueueEvent.ModeSwitchRequested.class)
      return new QueueEvent.ModeSwitchRequested(QueueMode.PARALLEL);
    if (type == QueueEvent.ModeSwitched.class)
      return new QueueEvent.ModeSwitched(QueueMode.PARALLEL);
    if (type == QueueEvent.TestRunStarted.class) {
      Entry other = fixture.state().activeEntry(13).orElseThrow();
      return new QueueEvent.TestRunStarted(
          TestRun.started(
              "run-13",
              List.of(new TestedPr(other.id(), 13, "s", "t", null)),
              List.of(12L),
              run,
              t));
    }
    if (type == QueueEvent.TestBranchBuilt.class)
      return new QueueEvent.TestBranchBuilt(run, "base", "head", t, 42L);
    if (type == QueueEvent.TestBranchConflicted.class)
      return new QueueEvent.TestBranchConflicted(run, 12);
    if (type == QueueEvent.StatusReported.class)
      return new QueueEvent.StatusReported(
          "abc",
          new RunStatus(
              "ci", dev.trainyard.common.command.CommitState.SUCCESS, null, null, null, null, t));
    if (type == QueueEvent.TestRunPassed.class) return new QueueEvent.TestRunPassed(run, t);
    if (type == QueueEvent.TestRunWentRed.class) return new QueueEvent.TestRunWentRed(run, "X", t);
    if (type == QueueEvent.TestRunFailed.class) return new QueueEvent.TestRunFailed(run, "X", t);
    if (type == QueueEvent.TestRunMerged.class) return new QueueEvent.TestRunMerged(run, "sha", t);
    if (type == QueueEvent.TestRunPartlyMerged.class)
      return new QueueEvent.TestRunPartlyMerged(run, List.of(12L), "sha", "BATCH_PARTLY_MERGED", t);
    if (type == QueueEvent.TestRunCancelled.class)
      return new QueueEvent.TestRunCancelled(run, "X", t);
    if (type == QueueEvent.TestBranchDeleted.class) return new QueueEvent.TestBranchDeleted(run);
    TestRun live = fixture.runOf(12);
    if (type == QueueEvent.TestRunBisected.class)
      return new QueueEvent.TestRunBisected(
          run, "X", List.of(TestRun.half("half-1", live.prs(), live, "target", t)), t);
    if (type == QueueEvent.BisectionRunStarted.class)
      return new QueueEvent.BisectionRunStarted("half-1", t);
    if (type == QueueEvent.TargetMoved.class) return new QueueEvent.TargetMoved("moved");
    if (type == QueueEvent.SourceProblemChanged.class)
      return new QueueEvent.SourceProblemChanged("the remote could not be fetched");
    if (type == QueueEvent.LandingRefused.class)
      return new QueueEvent.LandingRefused(run, "GitHub refused to move main (HTTP 422)");
    if (type == QueueEvent.RequiredChecksChanged.class)
      return new QueueEvent.RequiredChecksChanged(
          new RequiredChecks(
              List.of(dev.trainyard.common.command.RequiredCheck.named("ci/slow")), null));
    if (type == QueueEvent.TestRunCleared.class) return new QueueEvent.TestRunCleared(run, true, t);
    if (type == QueueEvent.BisectionHalfPassed.class)
      return new QueueEvent.BisectionHalfPassed(run, t);
    if (type == QueueEvent.TestRunRescued.class)
      return new QueueEvent.TestRunRescued(run, "run-13", t);
    if (type == QueueEvent.TestResultsRecorded.class)
      return new QueueEvent.TestResultsRecorded(run, 2, 0, t);
    if (type == QueueEvent.FlakyFailureForgiven.class)
      return new QueueEvent.FlakyFailureForgiven(run, t);
    throw new AssertionError(
        "no sample for " + type.getSimpleName() + ": add one with its applier");
  }
}
