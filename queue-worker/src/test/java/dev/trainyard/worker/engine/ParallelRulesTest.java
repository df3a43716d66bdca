package dev.trainyard.worker.engine;

import static dev.trainyard.worker.engine.QueueFixture.parallelQueue;
import static dev.trainyard.worker.engine.RunRulesTest.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.CommitState;
import dev.trainyard.common.command.ImpactedTargets;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.Priority;
import dev.trainyard.worker.engine.RunRulesTest.Row;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One row per parallel-mode rule of SCHEDULING.md: lanes from impacted-target overlap. */
class ParallelRulesTest {

  /** Lanes of #1 (api, docs) and #2 (web) testing; #3 (api, web) spans both and waits. */
  static QueueFixture spanning() {
    return QueueFixture.parallelQueue().lane(1, "api", "docs").lane(2, "web").lane(3, "api", "web");
  }

  static QueueCommand targets(long pr, String... targets) {
    return new QueueCommand.SetImpactedTargets(
        pr, "", ImpactedTargets.of(List.of(targets), "digest-" + pr));
  }

  static Stream<Row> rules() {
    return Stream.of(
        row(
            "lanes: a PR whose targets overlap no run is tested on the target, beside the others",
            () -> parallelQueue().lane(1, "api").submitted(2),
            q ->
                new QueueCommand.SetImpactedTargets(
                    2, "", ImpactedTargets.of(List.of("web"), "d2")),
            List.of("ImpactedTargetsRecorded"),
            q -> assertThat(q.stateOf(2)).isEqualTo(PrState.NOT_READY)),
        row(
            "lanes: a ready PR on disjoint targets starts its own lane",
            () -> {
              QueueFixture q = parallelQueue().lane(1, "api").submitted(2);
              return q.apply(
                  new QueueCommand.SetImpactedTargets(
                      2, "", ImpactedTargets.of(List.of("web"), "d2")));
            },
            q -> QueueFixture.observedCommand(2),
            List.of("PullRequestObserved", "PullRequestQueued", "TestRunStarted"),
            q -> {
              assertThat(q.runOf(2).predecessorId()).isNull();
              assertThat(q.runOf(2).dependentPrs()).isEmpty();
            }),
        row(
            "lanes: a PR overlapping a lane is built on that lane's latest run",
            () -> parallelQueue().lane(1, "api").lane(2, "web").submitted(3),
            q ->
                new QueueCommand.SetImpactedTargets(
                    3, "", ImpactedTargets.of(List.of("api", "docs"), "d3")),
            List.of("ImpactedTargetsRecorded"),
            q -> assertThat(q.state().runs().chain()).hasSize(2)),
        row(
            "urgent: runs of lanes it does not share stay while it waits for its own lanes",
            () ->
                parallelQueue()
                    .lane(1, "api")
                    .lane(2, "web")
                    .builtAll()
                    .green(1)
                    .green(2)
                    .lane(4, "docs")
                    .submitted(3, Priority.URGENT)
                    .apply(
                        new QueueCommand.SetImpactedTargets(
                            3, "", ImpactedTargets.of(List.of("api", "web"), "d3"))),
            q -> QueueFixture.observedCommand(3),
            List.of("PullRequestObserved", "PullRequestQueued"),
            q -> {
              assertThat(q.runOf(4).state()).isEqualTo(RunState.BUILDING);
              assertThat(q.stateOf(3)).isEqualTo(PrState.PENDING);
            }),
        row(
            "span barrier: before it, a PR joining one of the lanes a waiting PR spans starts",
            () -> spanning().submitted(4).apply(targets(4, "docs")),
            q -> QueueFixture.observedCommand(4),
            List.of("PullRequestObserved", "PullRequestQueued", "TestRunStarted"),
            q -> assertThat(q.runOf(4).predecessorId()).isEqualTo(q.runOf(1).id())),
        row(
            "span barrier: a PR that waited 30 minutes for the lanes it spans bars them",
            () ->
                spanning()
                    .after(QueueEngine.SPAN_BARRIER)
                    .tick()
                    .submitted(4)
                    .apply(targets(4, "docs")),
            q -> QueueFixture.observedCommand(4),
            List.of("PullRequestObserved", "PullRequestQueued"),
            q -> assertThat(q.stateOf(4)).isEqualTo(PrState.PENDING)),
        row(
            "span barrier: once one of its lanes drained it starts, and what it held back follows",
            () ->
                spanning()
                    .after(QueueEngine.SPAN_BARRIER)
                    .lane(4, "docs")
                    .builtAll()
                    .green(1)
                    .green(2),
            q -> QueueFixture.landedCommand(q, 1),
            List.of("TestRunMerged", "TestRunStarted", "TestRunStarted"),
            q -> {
              assertThat(q.runOf(3).predecessorId()).isEqualTo(q.runOf(2).id());
              assertThat(q.runOf(4).predecessorId()).isNull();
            }),
        row(
            "lanes: a PR impacting ALL waits while two lanes are live",
            () -> parallelQueue().lane(1, "api").lane(2, "web").submitted(3),
            q -> new QueueCommand.SetImpactedTargets(3, "", ImpactedTargets.everything()),
            List.of("ImpactedTargetsRecorded"),
            q -> assertThat(q.state().runs().chain()).hasSize(2)),
        row(
            "lanes: once one lane has landed, the PR impacting ALL is built on the other",
            () -> parallelQueue().lane(1, "api").lane(2, "web").impactingAll(3).builtAll().green(1),
            q -> QueueFixture.landedCommand(q, 1),
            List.of("TestRunMerged", "TestRunStarted"),
            q -> {
              assertThat(q.runOf(3).predecessorId()).isEqualTo(q.runOf(2).id());
              assertThat(q.runOf(3).dependentPrs()).containsExactly(2L);
            }),
        row(
            "lanes: a landing of a passed head that is not first is recorded (its record was lost)",
            () -> parallelQueue().lane(1, "api").lane(2, "web").builtAll().green(2).green(1),
            q -> QueueFixture.landedCommand(q, 2),
            List.of("TestRunMerged"),
            q -> {
              assertThat(q.stateOf(2)).isEqualTo(PrState.MERGED);
              assertThat(q.stateOf(1)).isEqualTo(PrState.TESTS_PASSED);
              assertThat(landing(q)).isEqualTo(new Landing(q.runOf(1).id(), "landed-2"));
            }),
        row(
            "lanes: a landing of a head that has not passed is not recorded",
            () -> parallelQueue().lane(1, "api").lane(2, "web").builtAll().green(1),
            q -> QueueFixture.landedCommand(q, 2),
            List.of(),
            q -> assertThat(q.stateOf(2)).isEqualTo(PrState.TESTING)),
        row(
            "lanes: a red lane head fails its lane only; the other lane keeps testing",
            () -> parallelQueue().lane(1, "api").lane(2, "web").lane(3, "api").builtAll(),
            q -> RunRulesTest.status(q, 1, CommitState.FAILURE),
            List.of("StatusReported", "TestRunFailed", "TestRunCancelled", "TestRunStarted"),
            q -> {
              assertThat(q.stateOf(1)).isEqualTo(PrState.FAILED);
              assertThat(q.stateOf(2)).isEqualTo(PrState.TESTING);
              assertThat(q.runOf(3).predecessorId()).isNull();
            }));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void rule(Row row) {
    RunRulesTest.check(row);
  }

  @Test
  void aPrOverlappingALaneIsBuiltOnItsLatestRunWithItsPrsAhead() {
    QueueFixture q = parallelQueue().lane(1, "api").lane(2, "web").lane(3, "api", "docs");

    assertThat(q.runOf(3).predecessorId()).isEqualTo(q.runOf(1).id());
    assertThat(q.runOf(3).dependentPrs()).containsExactly(1L);
  }

  @Test
  void lanesLandIndependentlyEachOnWhereTheLastLandingLeftTheTarget() {
    QueueFixture q = parallelQueue().lane(1, "api").lane(2, "web").builtAll().green(2);

    assertThat(landing(q)).isEqualTo(new Landing(q.runOf(2).id(), "target"));
    q.landed(2).green(1);
    assertThat(landing(q)).isEqualTo(new Landing(q.runOf(1).id(), "landed-2"));
  }

  @Test
  void aLandingNamesTheOtherPassedHeadsWhoseLandingACrashMayHaveLeftUnrecorded() {
    QueueFixture q =
        parallelQueue().lane(1, "api").lane(2, "web").lane(3, "docs").builtAll().green(3).green(1);

    Effect.LandRun land = landRun(q);

    assertThat(land.runId()).isEqualTo(q.runOf(1).id());
    assertThat(land.otherHeads())
        .containsExactly(
            new Effect.PassedHead(
                q.runOf(3).id(), "target", q.runOf(3).headSha(), q.runOf(3).prs()));
  }

  record Landing(String runId, String expectedTarget) {}

  private static Landing landing(QueueFixture q) {
    Effect.LandRun land = landRun(q);
    return new Landing(land.runId(), land.expectedTargetSha());
  }

  private static Effect.LandRun landRun(QueueFixture q) {
    return Effects.of(q.state()).stream()
        .filter(e -> e instanceof Effect.LandRun)
        .map(e -> (Effect.LandRun) e)
        .findFirst()
        .orElseThrow();
  }
}
