package dev.trainyard.worker.engine;

import static dev.trainyard.worker.engine.QueueFixture.absent;
import static dev.trainyard.worker.engine.QueueFixture.parallelQueue;
import static dev.trainyard.worker.engine.QueueFixture.queue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.ImpactedTargets;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.command.QueueCommand.CancelPullRequest;
import dev.trainyard.common.command.QueueCommand.CreateQueue;
import dev.trainyard.common.command.QueueCommand.DeleteQueue;
import dev.trainyard.common.command.QueueCommand.RestartTests;
import dev.trainyard.common.command.QueueCommand.SetImpactedTargets;
import dev.trainyard.common.command.QueueCommand.SubmitPullRequest;
import dev.trainyard.common.command.QueueCommand.Tick;
import dev.trainyard.common.command.QueueCommand.UpdateQueue;
import dev.trainyard.common.command.RejectionType;
import dev.trainyard.common.queue.CancellationReason;
import dev.trainyard.common.queue.MergeMethod;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.Priority;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.QueueSettingsPatch;
import dev.trainyard.common.queue.QueueState;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One row per rule of the engine (SCHEDULING.md, API.md §2–§3), including every rejection. */
class QueueEngineTest {
  private static final String NO_QUEUE = "no queue exists for github.com/acme/rocket branch main";

  /**
   * A rule: given a queue, when a command arrives, then these events (and state) or a rejection.
   */
  record Row(
      String rule,
      Supplier<QueueFixture> given,
      QueueCommand when,
      List<String> events,
      RejectionType rejection,
      String message,
      Consumer<QueueAggregate> then) {
    @Override
    public String toString() {
      return rule;
    }
  }

  static Row accepts(
      String rule,
      Supplier<QueueFixture> given,
      QueueCommand when,
      List<String> events,
      Consumer<QueueAggregate> then) {
    return new Row(rule, given, when, events, null, null, then);
  }

  static Row rejects(
      String rule,
      Supplier<QueueFixture> given,
      QueueCommand when,
      RejectionType type,
      String message) {
    return new Row(rule, given, when, List.of(), type, message, s -> {});
  }

  static Stream<Row> rules() {
    return Stream.of(
        accepts(
            "create: a new queue starts running with the defaults",
            QueueFixture::absent,
            new CreateQueue(QueueMode.SINGLE, 5),
            List.of("QueueCreated"),
            s -> {
              assertThat(s.state()).isEqualTo(QueueState.RUNNING);
              assertThat(s.settings().concurrency()).isEqualTo(5);
              assertThat(s.settings().notReadyTimeoutHours()).isEqualTo(24);
              assertThat(s.settings().mergeMethod()).isEqualTo(MergeMethod.MERGE_COMMIT);
              assertThat(s.settings().requiredStatuses()).isNull();
            }),
        accepts(
            "create: mode and concurrency are taken from the request",
            QueueFixture::absent,
            new CreateQueue(QueueMode.PARALLEL, 3),
            List.of("QueueCreated"),
            s -> assertThat(s.settings().mode()).isEqualTo(QueueMode.PARALLEL)),
        rejects(
            "create: an existing queue is a conflict",
            QueueFixture::queue,
            new CreateQueue(QueueMode.SINGLE, 5),
            RejectionType.CONFLICT,
            "a queue for github.com/acme/rocket branch main already exists"),
        rejects(
            "update: an absent queue is not found",
            QueueFixture::absent,
            new UpdateQueue(QueueSettingsPatch.empty()),
            RejectionType.NOT_FOUND,
            NO_QUEUE),
        accepts(
            "update: state paused",
            QueueFixture::queue,
            new UpdateQueue(QueueFixture.patch(QueueState.PAUSED, null, null)),
            List.of("QueueUpdated"),
            s -> assertThat(s.state()).isEqualTo(QueueState.PAUSED)),
        accepts(
            "update: settings not named keep their value",
            () -> queue().notReadyTimeoutHours(3),
            new UpdateQueue(QueueFixture.patch(null, QueueMode.PARALLEL, null)),
            List.of("QueueUpdated"),
            s -> {
              assertThat(s.settings().mode()).isEqualTo(QueueMode.PARALLEL);
              assertThat(s.settings().notReadyTimeoutHours()).isEqualTo(3);
            }),
        accepts(
            "update: with the settings' version it read, a form's change applies",
            () -> queue().notReadyTimeoutHours(3),
            new UpdateQueue(
                QueueFixture.patch(null, QueueMode.PARALLEL, null),
                queue().notReadyTimeoutHours(3).state().settings().version()),
            List.of("QueueUpdated"),
            s -> assertThat(s.settings().mode()).isEqualTo(QueueMode.PARALLEL)),
        rejects(
            "update: settings changed since the version it read are a conflict, not reverted",
            () -> queue().notReadyTimeoutHours(3),
            new UpdateQueue(
                QueueFixture.patch(null, QueueMode.PARALLEL, null),
                queue().state().settings().version()),
            RejectionType.CONFLICT,
            "the queue's settings changed since they were read (ifSettingsVersion "
                + queue().state().settings().version()
                + ", now "
                + queue().notReadyTimeoutHours(3).state().settings().version()
                + "); nothing was changed"),
        accepts(
            "update: draining stays draining until set otherwise",
            () -> queue().state(QueueState.DRAINING),
            new Tick(),
            List.of(),
            s -> assertThat(s.state()).isEqualTo(QueueState.DRAINING)),
        accepts(
            "delete: an absent queue is a no-op",
            QueueFixture::absent,
            new DeleteQueue(),
            List.of(),
            s -> assertThat(s).isNull()),
        accepts(
            "delete: an empty queue is deleted",
            QueueFixture::queue,
            new DeleteQueue(),
            List.of("QueueDeleted"),
            s -> assertThat(s).isNull()),
        rejects(
            "delete: a queue holding PRs is refused",
            () -> queue().submitted(12),
            new DeleteQueue(),
            RejectionType.INVALID_STATE,
            "the queue still holds 1 pull request(s); cancel or merge them before deleting it"),
        accepts(
            "delete: concluded PRs do not hold the queue",
            () -> queue().submitted(12).cancelled(12),
            new DeleteQueue(),
            List.of("QueueDeleted"),
            s -> assertThat(s).isNull()),
        rejects(
            "submit: to an absent queue is not found",
            QueueFixture::absent,
            new SubmitPullRequest(12, null, null),
            RejectionType.NOT_FOUND,
            NO_QUEUE),
        accepts(
            "submit: a new PR waits not_ready with the default priority",
            QueueFixture::queue,
            new SubmitPullRequest(12, null, null),
            List.of("PullRequestSubmitted"),
            s -> {
              Entry e = s.activeEntry(12).orElseThrow();
              assertThat(e.state()).isEqualTo(PrState.NOT_READY);
              assertThat(e.priority()).isEqualTo(Priority.MEDIUM);
              assertThat(e.priorityDefaulted()).isTrue();
              assertThat(e.pr().baseBranch()).isEqualTo("main");
              assertThat(e.pr().title()).isEmpty();
            }),
        accepts(
            "submit: urgent skips the line and sorts first",
            () -> queue().submitted(11),
            new SubmitPullRequest(12, Priority.URGENT, null),
            List.of("PullRequestSubmitted"),
            s -> {
              assertThat(s.activeEntry(12).orElseThrow().skipTheLine()).isTrue();
              assertThat(s.inQueueOrder().get(0).prNumber()).isEqualTo(12);
            }),
        accepts(
            "submit: a number that is no name keeps its digits as name",
            QueueFixture::queue,
            new SubmitPullRequest(12, Priority.ofValue(50), true),
            List.of("PullRequestSubmitted"),
            s -> {
              Entry e = s.activeEntry(12).orElseThrow();
              assertThat(e.priority().name()).isEqualTo("50");
              assertThat(e.priorityDefaulted()).isFalse();
              assertThat(e.noBatch()).isTrue();
            }),
        accepts(
            "submit: equal priorities keep submission order",
            () -> queue().submitted(30).submitted(20),
            new SubmitPullRequest(10, null, null),
            List.of("PullRequestSubmitted"),
            s ->
                assertThat(s.inQueueOrder())
                    .extracting(Entry::prNumber)
                    .containsExactly(30L, 20L, 10L)),
        rejects(
            "submit: a draining queue takes no new PRs",
            () -> queue().state(QueueState.DRAINING),
            new SubmitPullRequest(12, null, null),
            RejectionType.INVALID_STATE,
            "the queue is draining and takes no new pull requests"),
        accepts(
            "submit: a paused queue still takes PRs",
            () -> queue().state(QueueState.PAUSED),
            new SubmitPullRequest(12, null, null),
            List.of("PullRequestSubmitted"),
            s -> assertThat(s.entries()).hasSize(1)),
        accepts(
            "re-submit: without changes is idempotent",
            () -> queue().submitted(12),
            new SubmitPullRequest(12, null, null),
            List.of(),
            s -> assertThat(s.entries()).hasSize(1)),
        accepts(
            "re-submit: a new priority is applied to the same entry",
            () -> queue().submitted(12),
            new SubmitPullRequest(12, Priority.HIGH, null),
            List.of("PullRequestResubmitted"),
            s -> {
              assertThat(s.entries()).hasSize(1);
              assertThat(s.activeEntry(12).orElseThrow().priority()).isEqualTo(Priority.HIGH);
              assertThat(s.activeEntry(12).orElseThrow().priorityDefaulted()).isFalse();
            }),
        accepts(
            "re-submit: after the PR concluded it is a new submission",
            () -> queue().submitted(12).cancelled(12),
            new SubmitPullRequest(12, null, null),
            List.of("PullRequestSubmitted"),
            s ->
                assertThat(s.activeEntry(12).orElseThrow().id())
                    .isNotEqualTo(s.concluded().get(0).id())),
        rejects(
            "cancel: a PR not in the queue is not found",
            QueueFixture::queue,
            new CancelPullRequest(12),
            RejectionType.NOT_FOUND,
            "pull request 12 is not in the queue"),
        rejects(
            "cancel: on an absent queue is not found",
            QueueFixture::absent,
            new CancelPullRequest(12),
            RejectionType.NOT_FOUND,
            NO_QUEUE),
        accepts(
            "cancel: the PR leaves the queue cancelled by the user",
            () -> queue().submitted(12),
            new CancelPullRequest(12),
            List.of("PullRequestCancelled"),
            s -> {
              assertThat(s.entries()).isEmpty();
              assertThat(s.concluded().get(0).state()).isEqualTo(PrState.CANCELLED);
            }),
        rejects(
            "restart: a PR not in the queue is not found",
            QueueFixture::queue,
            new RestartTests(12),
            RejectionType.NOT_FOUND,
            "pull request 12 is not in the queue"),
        accepts(
            "restart: a not_ready PR is simply re-planned",
            () -> queue().submitted(12),
            new RestartTests(12),
            List.of("TestsRestarted"),
            s -> assertThat(s.activeEntry(12).orElseThrow().state()).isEqualTo(PrState.NOT_READY)),
        rejects(
            "impacted targets: an absent queue is not found",
            QueueFixture::absent,
            new SetImpactedTargets(12, "abc", ImpactedTargets.everything()),
            RejectionType.NOT_FOUND,
            NO_QUEUE),
        accepts(
            "impacted targets: stored before submit, applied on submit",
            () ->
                queue()
                    .apply(new SetImpactedTargets(12, "abc", new ImpactedTargets(false, 2, "d1"))),
            new SubmitPullRequest(12, null, null),
            List.of("PullRequestSubmitted"),
            s -> {
              assertThat(s.activeEntry(12).orElseThrow().impactedTargets().digest())
                  .isEqualTo("d1");
              assertThat(s.targetsBeforeSubmit()).isEmpty();
            }),
        accepts(
            "impacted targets: recorded for a PR in the queue",
            () -> queue().submitted(12),
            new SetImpactedTargets(12, "abc", ImpactedTargets.everything()),
            List.of("ImpactedTargetsRecorded"),
            s -> assertThat(s.activeEntry(12).orElseThrow().impactedTargets().all()).isTrue()),
        accepts(
            "readiness: a mergeable PR on the target branch is queued",
            () -> queue().submitted(12).mergeable(12),
            new Tick(),
            List.of("PullRequestQueued", "TestRunStarted"),
            s -> assertThat(s.activeEntry(12).orElseThrow().state()).isEqualTo(PrState.PENDING)),
        accepts(
            "readiness: parallel mode needs impacted targets",
            () -> parallelQueue().submitted(12).mergeable(12),
            new Tick(),
            List.of(),
            s -> assertThat(s.activeEntry(12).orElseThrow().state()).isEqualTo(PrState.NOT_READY)),
        accepts(
            "readiness: with impacted targets a parallel PR is queued",
            () -> parallelQueue().submitted(12).mergeable(12),
            new SetImpactedTargets(12, "", ImpactedTargets.everything()),
            List.of("ImpactedTargetsRecorded", "PullRequestQueued", "TestRunStarted"),
            s -> assertThat(s.activeEntry(12).orElseThrow().state()).isEqualTo(PrState.PENDING)),
        accepts(
            "readiness: a pending PR that loses readiness goes back to not_ready",
            () -> queue().state(QueueState.PAUSED).submitted(12).mergeable(12).apply(new Tick()),
            new UpdateQueue(QueueFixture.patch(null, QueueMode.PARALLEL, null)),
            List.of("QueueUpdated", "PullRequestNotReady"),
            s -> assertThat(s.activeEntry(12).orElseThrow().state()).isEqualTo(PrState.NOT_READY)),
        accepts(
            "stale: a PR not_ready for longer than notReadyTimeoutHours is cancelled",
            () -> queue().submitted(12).after(Duration.ofHours(24)),
            new Tick(),
            List.of("PullRequestCancelled"),
            s -> assertThat(s.concluded().get(0).state()).isEqualTo(PrState.CANCELLED)),
        accepts(
            "stale: not before the timeout",
            () -> queue().submitted(12).after(Duration.ofHours(23)),
            new Tick(),
            List.of(),
            s -> assertThat(s.entries()).hasSize(1)),
        accepts(
            "stale: notReadyTimeoutHours 0 never cancels",
            () -> queue().notReadyTimeoutHours(0).submitted(12).after(Duration.ofDays(3650)),
            new Tick(),
            List.of(),
            s -> assertThat(s.entries()).hasSize(1)),
        accepts(
            "stale: a shorter timeout set later applies to waiting PRs",
            () -> queue().submitted(12).after(Duration.ofHours(2)),
            new UpdateQueue(QueueFixture.patch(null, null, 1L)),
            List.of("QueueUpdated", "PullRequestCancelled"),
            s -> assertThat(s.entries()).isEmpty()),
        accepts(
            "observed: a mergeable PR on the target branch is recorded and queued",
            () -> queue().submitted(12),
            observed(12, "abc", "main", Mergeability.MERGEABLE),
            List.of("PullRequestObserved", "PullRequestQueued", "TestRunStarted"),
            s -> {
              Entry e = s.activeEntry(12).orElseThrow();
              assertThat(e.state()).isEqualTo(PrState.PENDING);
              assertThat(e.pr())
                  .isEqualTo(new PullRequestInfo("Add b", "abc", "main", "alice", null));
            }),
        accepts(
            "observed: a PR that does not merge stays not_ready with its facts",
            () -> queue().submitted(12),
            observed(12, "abc", "main", Mergeability.NOT_MERGEABLE),
            List.of("PullRequestObserved"),
            s -> assertThat(s.activeEntry(12).orElseThrow().pr().sha()).isEqualTo("abc")),
        accepts(
            "observed: a PR based on another branch is not ready",
            () -> queue().submitted(12),
            observed(12, "abc", "release", Mergeability.MERGEABLE),
            List.of("PullRequestObserved"),
            s -> assertThat(s.activeEntry(12).orElseThrow().state()).isEqualTo(PrState.NOT_READY)),
        accepts(
            "observed: a pending PR that stops merging goes back to not_ready",
            () ->
                queue()
                    .state(QueueState.PAUSED)
                    .submitted(12)
                    .apply(observed(12, "abc", "main", Mergeability.MERGEABLE)),
            observed(12, "abc", "main", Mergeability.NOT_MERGEABLE),
            List.of("PullRequestObserved", "PullRequestNotReady"),
            s -> assertThat(s.activeEntry(12).orElseThrow().state()).isEqualTo(PrState.NOT_READY)),
        accepts(
            "observed: the same facts again change nothing",
            () ->
                queue()
                    .submitted(12)
                    .apply(observed(12, "abc", "main", Mergeability.NOT_MERGEABLE)),
            observed(12, "abc", "main", Mergeability.NOT_MERGEABLE),
            List.of(),
            s -> {}),
        accepts(
            "observed: a closed PR is cancelled",
            () -> queue().submitted(12),
            QueueCommand.RecordPullRequestState.closed(12),
            List.of("PullRequestCancelled"),
            s -> assertThat(s.concluded().get(0).state()).isEqualTo(PrState.CANCELLED)),
        accepts(
            "observed: a PR not in the queue is ignored",
            QueueFixture::queue,
            observed(12, "abc", "main", Mergeability.MERGEABLE),
            List.of(),
            s -> assertThat(s.entries()).isEmpty()),
        accepts(
            "refresh: reading the source host is the shell's work, not a state change",
            () -> queue().submitted(12),
            new QueueCommand.RefreshFromScm(),
            List.of(),
            s -> assertThat(s.entries()).hasSize(1)),
        accepts(
            "tick: on an absent queue does nothing",
            QueueFixture::absent,
            new Tick(),
            List.of(),
            s -> assertThat(s).isNull()));
  }

  static QueueCommand observed(long pr, String sha, String base, Mergeability mergeability) {
    return new QueueCommand.RecordPullRequestState(
        pr, true, sha, "Add b", "alice", base, null, mergeability, null, List.of());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void rule(Row row) {
    QueueFixture given = row.given().get();
    Decision decision = given.decide(row.when());

    if (row.rejection() != null) {
      assertThat(decision.isAccepted()).isFalse();
      assertThat(decision.rejection().type()).isEqualTo(row.rejection());
      assertThat(decision.rejection().message()).isEqualTo(row.message());
      return;
    }
    assertThat(decision.rejection()).as("rejection").isNull();
    assertThat(QueueFixture.eventNames(decision)).isEqualTo(row.events());
    row.then().accept(given.applyDecision(decision).state());
  }

  @org.junit.jupiter.api.Test
  void staleCancellationNamesItsReason() {
    QueueFixture given = queue().submitted(12).after(Duration.ofHours(25));
    Decision decision = given.decide(new Tick());
    assertThat(decision.events())
        .singleElement()
        .isEqualTo(
            new QueueEvent.PullRequestCancelled(
                given.state().activeEntry(12).orElseThrow().id(),
                CancellationReason.NOT_READY_TIMEOUT,
                given.now()));
  }

  @org.junit.jupiter.api.Test
  void nextDeadlineIsTheEarliestStaleTimeout() {
    QueueFixture given = queue().submitted(12).after(Duration.ofHours(1)).submitted(13);
    assertThat(new QueueEngine().nextDeadline(given.state(), given.now()))
        .contains(QueueFixture.T0.plus(Duration.ofHours(24)));
    assertThat(new QueueEngine().nextDeadline(absent().state(), QueueFixture.T0)).isEmpty();
  }

  /**
   * A person moves the queue between running, paused and draining in any direction; a mode change
   * while runs are in flight switches first, from any of them, and a state set while switching ends
   * the switch there.
   */
  @Test
  void aPersonMovesTheQueueBetweenItsStates() {
    List<QueueState> set = List.of(QueueState.RUNNING, QueueState.PAUSED, QueueState.DRAINING);
    for (QueueState from : set) {
      for (QueueState to : set) {
        assertThat(queue().state(from).state(to).state().state()).isEqualTo(to);
      }
      QueueFixture switching = queue().queued(1).state(from).mode(QueueMode.PARALLEL);
      assertThat(switching.state().state()).isEqualTo(QueueState.SWITCHING_MODES);
      QueueFixture left = queue().queued(1).state(from).mode(QueueMode.PARALLEL).state(from);
      assertThat(left.state().state()).isEqualTo(from);
    }
  }
}
