package dev.trainyard.worker.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.CommitState;
import dev.trainyard.common.command.ImpactedTargets;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.queue.QueueMode;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Java 17 has no pattern switch, so {@link QueueEngine#decide} dispatches commands by {@code
 * instanceof}; this test is what the compiler would check: every permitted {@link QueueCommand}
 * type has a sample here, and the engine decides each (accepts or refuses it) on a live queue
 * instead of falling through to "no rule".
 */
class CommandDispatchTest {

  /** One command of each type, on a queue where PR 12 is in a built run. */
  private static List<QueueCommand> samples(QueueFixture q) {
    String run = q.runOf(12).id();
    return List.of(
        new QueueCommand.CreateQueue(QueueMode.SINGLE, 2),
        new QueueCommand.UpdateQueue(QueueFixture.patch(null, null, 4L)),
        new QueueCommand.DeleteQueue(),
        new QueueCommand.SubmitPullRequest(13, null, null),
        new QueueCommand.CancelPullRequest(12),
        new QueueCommand.RestartTests(12),
        new QueueCommand.SetImpactedTargets(12, "sha-12", ImpactedTargets.everything()),
        new QueueCommand.Tick(),
        QueueFixture.observedCommand(12),
        new QueueCommand.RecordSourceProblem("unreachable"),
        new QueueCommand.RecordRequiredChecks(List.of(), null),
        new QueueCommand.RefreshFromScm(),
        new QueueCommand.ReportStatus("head-" + run, "ci/test", CommitState.SUCCESS, null, null),
        new QueueCommand.RecordTestBranch(run, "target", "head-" + run),
        new QueueCommand.RecordTestBranchConflict(run, 12),
        new QueueCommand.RecordMerge(run, "landed"),
        new QueueCommand.RecordMergeRefused(run, "moved", null),
        new QueueCommand.RecordPartialMerge(run, "landed", List.of(12L), 13, "refused"),
        new QueueCommand.RecordLandingHeld(run, 12, "a review requested changes"),
        new QueueCommand.RecordBranchDeleted(run),
        new QueueCommand.FreezeQueue("release", null),
        new QueueCommand.UnfreezeQueue(),
        new QueueCommand.RecordDirectMergeRefused(run),
        new QueueCommand.RecordTestResults("head-" + run, 1, 0));
  }

  @Test
  void everyCommandTypeIsDecidedOnALiveQueue() {
    QueueFixture q = QueueFixture.queue().queued(12).built(12);
    Map<Class<?>, QueueCommand> byType =
        samples(q).stream().collect(Collectors.toMap(Object::getClass, Function.identity()));

    assertThat(byType.keySet())
        .as("a sample of every permitted command type")
        .containsExactlyInAnyOrder(QueueCommand.class.getPermittedSubclasses());
    Stream.of(QueueCommand.class.getPermittedSubclasses())
        .forEach(
            type ->
                assertThat(q.decide(byType.get(type)))
                    .as(type.getSimpleName() + " is decided")
                    .isNotNull());
  }
}
