package dev.trainyard.worker.engine;

import static dev.trainyard.worker.engine.QueueFixture.queue;
import static dev.trainyard.worker.engine.RunRulesTest.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.CommitState;
import dev.trainyard.common.command.HostDependency;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.command.QueueCommand.CancelPullRequest;
import dev.trainyard.common.command.QueueCommand.FreezeQueue;
import dev.trainyard.common.command.QueueCommand.SubmitPullRequest;
import dev.trainyard.common.command.QueueCommand.Tick;
import dev.trainyard.common.command.QueueCommand.UnfreezeQueue;
import dev.trainyard.common.command.RejectionType;
import dev.trainyard.common.queue.CancellationReason;
import dev.trainyard.common.queue.DirectMergeMode;
import dev.trainyard.common.queue.MergeWindow;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.QueueSettingsPatch;
import dev.trainyard.worker.engine.RunRulesTest.Row;
import dev.trainyard.worker.projection.Views;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One row per queue-control rule (API.md §2 {@code dependsOn}, §3 {@code mergeWindows} and {@code
 * freeze}): given a queue, when, then. The fixture's clock starts on Thursday 2026-09-17 10:00 UTC.
 */
class QueueControlRulesTest {
  /** Saturdays 09:00–17:00 UTC: closed at the fixture's start, open two days later. */
  static final MergeWindow SATURDAY = MergeWindow.of(0, List.of("sat"), "09:00", "17:00", "UTC");

  static final Instant SATURDAY_NINE = Instant.parse("2026-09-19T09:00:00Z");

  /** {@code pr} passed its run, which waits to land. */
  static QueueFixture passed(long pr) {
    return queue().queued(pr).built(pr).green(pr);
  }

  static boolean lands(QueueFixture q, long pr) {
    return Effects.of(q.state()).stream()
        .anyMatch(e -> e instanceof Effect.LandRun l && l.runId().equals(q.runOf(pr).id()));
  }

  /** The source host shows {@code pr} open and mergeable, its description naming {@code on}. */
  static QueueCommand declaring(long pr, Long... on) {
    return QueueFixture.observedCommand(pr, "sha-" + pr, Mergeability.MERGEABLE, null, List.of(on));
  }

  /** A queue in {@code directMergeMode: always}. */
  static QueueFixture direct() {
    return queue().updated(QueueSettingsPatch.directMergeMode(DirectMergeMode.ALWAYS));
  }

  /** The host found PR {@code pr}'s head containing the target's head {@code target}. */
  static QueueCommand upToDate(QueueFixture q, long pr) {
    return new QueueCommand.RecordTestBranch(q.runOf(pr).id(), "target", "sha-" + pr);
  }

  /** PR 1's direct run, found up to date by the host: its own statuses decide now. */
  static QueueFixture checkedUpToDate() {
    QueueFixture q = direct().queued(1);
    return q.apply(upToDate(q, 1));
  }

  static QueueCommand statusOfHead(long pr, CommitState state) {
    return new QueueCommand.ReportStatus("sha-" + pr, "ci/test", state, null, null);
  }

  static String reason(QueueFixture q, long pr) {
    return Views.pullRequest(q.state(), q.state().activeEntry(pr).orElseThrow())
        .readiness()
        .notReadyReason();
  }

  static Stream<Row> rules() {
    return Stream.of(
        row(
            "freeze: the passed run waits; nothing lands",
            () -> passed(1),
            q -> new FreezeQueue("release 4.2", null),
            List.of("QueueFrozen", "LandingHoldChanged"),
            q -> {
              assertThat(lands(q, 1)).isFalse();
              assertThat(q.state().landingHold()).isEqualTo("the queue is frozen: release 4.2");
            }),
        row(
            "freeze: testing goes on",
            () -> queue().frozen(null).submitted(1),
            q -> QueueFixture.observedCommand(1),
            List.of("PullRequestObserved", "PullRequestQueued", "TestRunStarted"),
            q -> assertThat(q.state().runs().live()).hasSize(1)),
        row(
            "freeze: a run that passes while frozen waits",
            () -> queue().frozen(null).queued(1).built(1),
            q -> RunRulesTest.status(q, 1, dev.trainyard.common.command.CommitState.SUCCESS),
            List.of("StatusReported", "TestRunPassed"),
            q -> {
              assertThat(q.stateOf(1)).isEqualTo(PrState.TESTS_PASSED);
              assertThat(lands(q, 1)).isFalse();
            }),
        row(
            "unfreeze: the run that passed lands as tested, without a new run",
            () -> passed(1).frozen(null),
            q -> new UnfreezeQueue(),
            List.of("QueueUnfrozen", "LandingHoldChanged"),
            q -> {
              assertThat(lands(q, 1)).isTrue();
              assertThat(q.state().runs().live()).hasSize(1);
            }),
        row(
            "unfreeze: a queue that is not frozen stays as it is",
            () -> passed(1),
            q -> new UnfreezeQueue(),
            List.of(),
            q -> assertThat(lands(q, 1)).isTrue()),
        row(
            "freeze until: it ends by itself when until passes",
            () ->
                passed(1)
                    .frozen(QueueFixture.T0.plus(Duration.ofHours(1)))
                    .after(Duration.ofHours(1)),
            q -> new Tick(),
            List.of("QueueUnfrozen", "LandingHoldChanged"),
            q -> {
              assertThat(q.state().freeze()).isNull();
              assertThat(lands(q, 1)).isTrue();
            }),
        row(
            "freeze: a PR that passed may still be cancelled (it is not being landed)",
            () -> passed(1).frozen(null),
            q -> new CancelPullRequest(1),
            List.of("PullRequestCancelled", "TestRunCancelled"),
            q -> assertThat(q.state().entries()).isEmpty()),
        row(
            "windows: outside every window the passed run waits",
            () -> passed(1),
            q -> new QueueCommand.UpdateQueue(QueueFixture.mergeWindows(List.of(SATURDAY))),
            List.of("QueueUpdated", "LandingHoldChanged"),
            q -> {
              assertThat(lands(q, 1)).isFalse();
              assertThat(q.state().landingHold())
                  .isEqualTo("outside every merge window; the next opens at " + SATURDAY_NINE);
            }),
        row(
            "windows: when the window opens the run lands as tested",
            () ->
                passed(1).windows(SATURDAY).after(Duration.between(QueueFixture.T0, SATURDAY_NINE)),
            q -> new Tick(),
            List.of("LandingHoldChanged"),
            q -> {
              assertThat(q.state().landingHold()).isNull();
              assertThat(lands(q, 1)).isTrue();
            }),
        row(
            "windows: inside a window nothing waits",
            () ->
                queue()
                    .windows(SATURDAY)
                    .after(Duration.between(QueueFixture.T0, SATURDAY_NINE))
                    .queued(1)
                    .built(1),
            q -> RunRulesTest.status(q, 1, dev.trainyard.common.command.CommitState.SUCCESS),
            List.of("StatusReported", "TestRunPassed"),
            q -> assertThat(lands(q, 1)).isTrue()),
        row(
            "direct: a ready PR first in an idle lane is checked, not built",
            () -> direct().submitted(1),
            q -> QueueFixture.observedCommand(1),
            List.of("PullRequestObserved", "PullRequestQueued", "TestRunStarted"),
            q -> {
              assertThat(q.runOf(1).direct()).isTrue();
              assertThat(Effects.of(q.state()))
                  .singleElement()
                  .isInstanceOf(Effect.CheckDirectMerge.class);
            }),
        row(
            "direct: never with a run ahead in the lane",
            () -> direct().queued(1).submitted(2),
            q -> QueueFixture.observedCommand(2),
            List.of("PullRequestObserved", "PullRequestQueued", "TestRunStarted"),
            q -> {
              assertThat(q.runOf(2).direct()).isFalse();
              assertThat(q.runOf(2).predecessorId()).isEqualTo(q.runOf(1).id());
            }),
        row(
            "direct: a head without the target's head is tested the usual way",
            () -> direct().queued(1),
            q -> new QueueCommand.RecordDirectMergeRefused(q.runOf(1).id()),
            List.of("DirectMergeDeclined", "TestRunStarted"),
            q -> {
              assertThat(q.runOf(1).direct()).isFalse();
              assertThat(q.stateOf(1)).isEqualTo(PrState.PENDING);
            }),
        row(
            "direct: the PR's own green statuses pass it; it lands as it is",
            QueueControlRulesTest::checkedUpToDate,
            q -> statusOfHead(1, CommitState.SUCCESS),
            List.of("StatusReported", "TestRunPassed"),
            q ->
                assertThat(Effects.of(q.state()))
                    .anySatisfy(
                        e -> {
                          assertThat(e).isInstanceOf(Effect.LandRun.class);
                          Effect.LandRun land = (Effect.LandRun) e;
                          assertThat(land.testedSha()).isEqualTo("sha-1");
                          assertThat(land.builtOnSha()).isEqualTo("target");
                        })),
        row(
            "direct: a red status on its own head sends it to a usual run, never fails it",
            QueueControlRulesTest::checkedUpToDate,
            q -> statusOfHead(1, CommitState.FAILURE),
            List.of("StatusReported", "DirectMergeDeclined", "TestRunStarted"),
            q -> {
              assertThat(q.stateOf(1)).isEqualTo(PrState.PENDING);
              assertThat(q.runOf(1).direct()).isFalse();
            }),
        row(
            "direct: other commits' statuses never push out one of the head it lands",
            () -> {
              QueueFixture q =
                  direct()
                      .queued(1)
                      .apply(statusOfHead(1, CommitState.FAILURE))
                      .apply(
                          new QueueCommand.ReportStatus(
                              "sha-1", "ci/build", CommitState.SUCCESS, null, null));
              for (int i = 0; i < 300; i++) {
                q.apply(
                    new QueueCommand.ReportStatus(
                        "other-" + i, "ci/test", CommitState.SUCCESS, null, null));
              }
              return q;
            },
            q -> upToDate(q, 1),
            List.of("TestBranchBuilt", "DirectMergeDeclined", "TestRunStarted"),
            q -> {
              assertThat(q.runOf(1).direct()).isFalse();
              assertThat(q.state().runs().unclaimed()).hasSize(RunBook.MAX_UNCLAIMED + 2);
            }),
        row(
            "dependsOn: a dependency not in the queue keeps the PR not ready",
            () -> queue().dependent(2, 1L),
            q -> QueueFixture.observedCommand(2),
            List.of("PullRequestObserved"),
            q ->
                assertThat(reason(q, 2))
                    .isEqualTo(
                        "it depends on pull request #1, which is not in the queue; submit it too")),
        row(
            "dependsOn: a dependency the host says merged (elsewhere, by hand) holds nothing",
            () -> queue().dependent(2, 1L),
            q -> QueueFixture.observedWith(2, new HostDependency(1, true, false, "release-1")),
            List.of("PullRequestObserved", "PullRequestQueued", "TestRunStarted"),
            q -> assertThat(q.stateOf(2)).isEqualTo(PrState.PENDING)),
        row(
            "dependsOn: one the host shows open on another branch is named at once",
            () -> queue().dependent(2, 1L),
            q -> QueueFixture.observedWith(2, new HostDependency(1, false, true, "release-1")),
            List.of("PullRequestObserved"),
            q ->
                assertThat(reason(q, 2))
                    .isEqualTo(
                        "it depends on pull request #1, which targets release-1 (another queue);"
                            + " it is ready once #1 has merged")),
        row(
            "dependsOn: one the host shows closed without merging is named at once",
            () -> queue().dependent(2, 1L),
            q -> QueueFixture.observedWith(2, new HostDependency(1, false, false, "main")),
            List.of("PullRequestObserved"),
            q ->
                assertThat(reason(q, 2))
                    .isEqualTo(
                        "it depends on pull request #1, which was closed without merging; reopen"
                            + " it or remove the dependency")),
        row(
            "dependsOn: once the dependency is submitted the PR is ready, but does not start",
            () -> queue().dependent(2, 1L).ready(2),
            q -> new SubmitPullRequest(1, null, null),
            List.of("PullRequestSubmitted", "PullRequestQueued"),
            q -> {
              assertThat(q.stateOf(2)).isEqualTo(PrState.PENDING);
              assertThat(q.state().runs().live()).isEmpty();
            }),
        row(
            "dependsOn: when the dependency starts, the PR starts behind it",
            () -> queue().dependent(2, 1L).ready(2).submitted(1),
            q -> QueueFixture.observedCommand(1),
            List.of("PullRequestObserved", "PullRequestQueued", "TestRunStarted", "TestRunStarted"),
            q -> assertThat(q.runOf(2).predecessorId()).isEqualTo(q.runOf(1).id())),
        row(
            "dependsOn: a PR submitted first but depending on a later one waits for it",
            () -> queue().dependent(1, 2L).ready(1).submitted(2),
            q -> QueueFixture.observedCommand(2),
            List.of("PullRequestObserved", "PullRequestQueued", "TestRunStarted", "TestRunStarted"),
            q -> assertThat(q.runOf(1).predecessorId()).isEqualTo(q.runOf(2).id())),
        row(
            "dependsOn: a failed dependency cancels the PR (DEPENDENCY_FAILED)",
            () -> queue().queued(1).dependent(2, 1L).ready(2).built(1),
            q -> RunRulesTest.status(q, 1, dev.trainyard.common.command.CommitState.FAILURE),
            List.of("StatusReported", "TestRunFailed", "TestRunCancelled", "PullRequestCancelled"),
            q -> {
              assertThat(q.stateOf(2)).isEqualTo(PrState.CANCELLED);
              assertThat(lastCancellation(q)).isEqualTo(CancellationReason.DEPENDENCY_FAILED);
            }),
        row(
            "dependsOn: a cancelled dependency cancels the PR",
            () -> queue().queued(1).dependent(2, 1L).ready(2),
            q -> new CancelPullRequest(1),
            List.of(
                "PullRequestCancelled",
                "PullRequestCancelled",
                "TestRunCancelled",
                "TestRunCancelled"),
            q -> assertThat(q.stateOf(2)).isEqualTo(PrState.CANCELLED)),
        row(
            "dependsOn, parallel mode: a PR shares its dependency's lane, whatever its targets",
            () ->
                QueueFixture.parallelQueue()
                    .lane(1, "api")
                    .dependent(2, 1L)
                    .apply(
                        new QueueCommand.SetImpactedTargets(
                            2,
                            "",
                            dev.trainyard.common.command.ImpactedTargets.of(
                                List.of("web"), "digest-web"))),
            q -> QueueFixture.observedCommand(2),
            List.of("PullRequestObserved", "PullRequestQueued", "TestRunStarted"),
            q -> assertThat(q.runOf(2).predecessorId()).isEqualTo(q.runOf(1).id())),
        row(
            "dependsOn: a PR whose dependency landed starts on the target",
            () -> passed(1).landed(1).dependent(2, 1L),
            q -> QueueFixture.observedCommand(2),
            List.of("PullRequestObserved", "PullRequestQueued", "TestRunStarted"),
            q -> assertThat(q.runOf(2).predecessorId()).isNull()),
        row(
            "Depends-On: a cycle the source host forms makes the newer PR not ready",
            () -> queue().submitted(1).dependent(2, 1L).ready(2),
            q -> declaring(1, 2L),
            List.of("PullRequestObserved", "PullRequestQueued", "PullRequestNotReady"),
            q ->
                assertThat(reason(q, 2))
                    .startsWith("its dependencies make a cycle (#2 → #1 → #2)")),
        row(
            "stack: a PR based on another PR's branch waits for it, not for its base to change",
            () -> queue().submitted(2),
            q -> QueueFixture.stacked(2, 1),
            List.of("PullRequestObserved"),
            q ->
                assertThat(reason(q, 2))
                    .isEqualTo(
                        "it is stacked on pull request #1, which is not in the queue; submit it"
                            + " too, or submit this one with its stack")),
        row(
            "stack: submitted with its stack, the PR it is stacked on is submitted for it",
            () -> queue().submittedWithStack(3),
            q -> QueueFixture.stacked(3, 2),
            // ready once the PR below is in the queue; it starts only behind it
            List.of("PullRequestObserved", "PullRequestSubmitted", "PullRequestQueued"),
            q -> {
              Entry below = q.state().activeEntry(2).orElseThrow();
              assertThat(below.stack()).as("it submits its own stack in turn").isTrue();
              assertThat(below.priority())
                  .isEqualTo(q.state().activeEntry(3).orElseThrow().priority());
            }),
        row(
            "stack: ... down to the PR based on the queue's branch, which is tested first",
            () -> queue().submittedWithStack(3).stackedOn(3, 2).stackedOn(2, 1),
            q -> QueueFixture.observedCommand(1),
            List.of(
                "PullRequestObserved",
                "PullRequestQueued",
                "TestRunStarted",
                "TestRunStarted",
                "TestRunStarted"),
            q -> {
              assertThat(q.runOf(1).predecessorId()).isNull();
              assertThat(q.runOf(2).predecessorId()).isEqualTo(q.runOf(1).id());
              assertThat(q.runOf(3).predecessorId()).isEqualTo(q.runOf(2).id());
            }),
        row(
            "stack: resubmitted with its stack, a PR already read submits the one below",
            () -> queue().submitted(2).stackedOn(2, 1),
            q -> new SubmitPullRequest(2, null, null, null, null, true),
            List.of("PullRequestResubmitted", "PullRequestSubmitted", "PullRequestQueued"),
            q -> {
              assertThat(q.state().activeEntry(1)).isPresent();
              assertThat(q.state().activeEntry(2).orElseThrow().stack()).isTrue();
            }),
        row(
            "stack: resubmitted with its stack before it was read, it submits the one below later",
            () ->
                queue().submitted(2).apply(new SubmitPullRequest(2, null, null, null, null, true)),
            q -> QueueFixture.stacked(2, 1),
            List.of("PullRequestObserved", "PullRequestSubmitted", "PullRequestQueued"),
            q -> assertThat(q.state().activeEntry(1)).isPresent()),
        row(
            "stack: a PR below that already landed here is not submitted again",
            () -> passed(1).landed(1).submittedWithStack(2),
            q -> QueueFixture.stacked(2, 1),
            List.of("PullRequestObserved", "PullRequestQueued", "TestRunStarted"),
            q -> {
              assertThat(q.state().activeEntry(1)).isEmpty();
              assertThat(q.runOf(2).predecessorId()).as("it starts on the target").isNull();
            }),
        row(
            "stack: a failed PR cancels the ones stacked on it, each naming the one below",
            () ->
                queue()
                    .queued(1)
                    .submitted(2)
                    .stackedOn(2, 1)
                    .submitted(3)
                    .stackedOn(3, 2)
                    .built(1),
            q -> RunRulesTest.status(q, 1, dev.trainyard.common.command.CommitState.FAILURE),
            List.of(
                "StatusReported",
                "TestRunFailed",
                "TestRunCancelled",
                "TestRunCancelled",
                "PullRequestCancelled",
                "PullRequestCancelled"),
            q -> {
              assertThat(q.stateOf(2)).isEqualTo(PrState.CANCELLED);
              assertThat(q.stateOf(3)).isEqualTo(PrState.CANCELLED);
              assertThat(causes(q)).containsExactly(1L, 2L);
              assertThat(lastCancellation(q)).isEqualTo(CancellationReason.DEPENDENCY_FAILED);
            }),
        row(
            "stack: retargeted onto the queue's branch while tested, it is not cancelled",
            () -> queue().queued(1).submitted(2).stackedOn(2, 1).built(1).built(2),
            q -> QueueFixture.observedCommand(2),
            List.of("PullRequestObserved"),
            q -> {
              assertThat(q.stateOf(2)).isEqualTo(PrState.TESTING);
              assertThat(q.state().activeEntry(2).orElseThrow().pr().baseBranch())
                  .isEqualTo("main");
            }),
        row(
            "a PR moved to another base while tested is cancelled (PR_BASE_BRANCH_CHANGED)",
            () -> queue().queued(1).built(1),
            q ->
                new QueueCommand.RecordPullRequestState(
                    1,
                    true,
                    "sha-1",
                    "Change 1",
                    "dev1",
                    "release-1",
                    null,
                    Mergeability.MERGEABLE,
                    null,
                    List.of()),
            List.of("PullRequestCancelled", "TestRunCancelled"),
            q ->
                assertThat(lastCancellation(q))
                    .isEqualTo(CancellationReason.PR_BASE_BRANCH_CHANGED)),
        row(
            "stack: the landing of a stacked PR names its base, which the host retargets",
            () -> queue().queued(1).submitted(2).stackedOn(2, 1).built(1).green(1),
            q -> QueueFixture.landedCommand(q, 1),
            List.of("TestRunMerged"),
            q -> {
              q.built(2).green(2);
              Effect.LandRun landing =
                  Effects.of(q.state()).stream()
                      .filter(Effect.LandRun.class::isInstance)
                      .map(Effect.LandRun.class::cast)
                      .findFirst()
                      .orElseThrow();
              assertThat(landing.stackedBases())
                  .containsExactly(java.util.Map.entry(2L, "feature-1"));
              assertThat(
                      Effects.of(passed(1).state()).stream()
                          .filter(Effect.LandRun.class::isInstance)
                          .map(e -> ((Effect.LandRun) e).stackedBases()))
                  .as("a PR based on the queue's branch is not retargeted")
                  .containsExactly(java.util.Map.of());
            }));
  }

  /** The PRs named as the cause of each cancellation the queue recorded, in order. */
  static List<Long> causes(QueueFixture q) {
    return q.log().stream()
        .filter(e -> e instanceof QueueEvent.PullRequestCancelled c && c.causePr() != null)
        .map(e -> ((QueueEvent.PullRequestCancelled) e).causePr())
        .toList();
  }

  /** The reason of the last cancellation the queue recorded. */
  static CancellationReason lastCancellation(QueueFixture q) {
    return q.log().stream()
        .filter(e -> e instanceof QueueEvent.PullRequestCancelled)
        .map(e -> ((QueueEvent.PullRequestCancelled) e).reason())
        .reduce((first, second) -> second)
        .orElseThrow();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void rule(Row row) {
    RunRulesTest.check(row);
  }

  @Test
  void aDependsOnCycleOrThePrItselfIsRefusedAtSubmit() {
    QueueFixture q = queue().dependent(2, 1L).dependent(1, 3L);
    Decision cycle = q.decide(new SubmitPullRequest(3, null, null, null, List.of(2L)));
    assertThat(cycle.rejection().type()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(cycle.rejection().message())
        .isEqualTo("dependsOn would make a cycle of dependencies: #3 → #2 → #1 → #3");
    Decision self = q.decide(new SubmitPullRequest(4, null, null, null, List.of(4L)));
    assertThat(self.rejection().message()).isEqualTo("dependsOn names pull request 4 itself");
  }

  @Test
  void theNextDeadlineIsTheFreezesEndOrTheWindowsNextChange() {
    QueueEngine engine = new QueueEngine();
    Instant end = QueueFixture.T0.plus(Duration.ofMinutes(30));
    assertThat(engine.nextDeadline(queue().frozen(end).state(), QueueFixture.T0)).contains(end);
    assertThat(engine.nextDeadline(queue().windows(SATURDAY).state(), QueueFixture.T0))
        .contains(SATURDAY_NINE);
  }
}
