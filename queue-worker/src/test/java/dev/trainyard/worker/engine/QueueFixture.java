package dev.trainyard.worker.engine;

import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.Priority;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.QueueSettingsPatch;
import dev.trainyard.common.queue.QueueState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Builds queue states the way they arise: by running commands through the real engine with a test
 * clock. Reads like the scenario: {@code queue().submitted(12).after(hours(2))}.
 */
final class QueueFixture {
  static final QueueKey KEY = QueueKey.of("acme-org", "github.com", "acme", "rocket", "main");
  static final Instant T0 = Instant.parse("2026-09-17T10:00:00Z");

  private final QueueEngine engine = new QueueEngine();
  private QueueAggregate state;
  private Instant now = T0;

  static QueueFixture absent() {
    return new QueueFixture();
  }

  static QueueFixture queue() {
    return absent().apply(new QueueCommand.CreateQueue(QueueMode.SINGLE, 5));
  }

  static QueueFixture parallelQueue() {
    return absent().apply(new QueueCommand.CreateQueue(QueueMode.PARALLEL, 5));
  }

  QueueFixture submitted(long pr) {
    return apply(new QueueCommand.SubmitPullRequest(pr, null, null));
  }

  QueueFixture submitted(long pr, Priority priority) {
    return apply(new QueueCommand.SubmitPullRequest(pr, priority, null));
  }

  QueueFixture cancelled(long pr) {
    return apply(new QueueCommand.CancelPullRequest(pr));
  }

  QueueFixture state(QueueState queueState) {
    return updated(patch(queueState, null, null));
  }

  QueueFixture notReadyTimeoutHours(long hours) {
    return updated(patch(null, null, hours));
  }

  QueueFixture mode(QueueMode mode) {
    return updated(patch(null, mode, null));
  }

  QueueFixture updated(QueueSettingsPatch patch) {
    return apply(new QueueCommand.UpdateQueue(patch));
  }

  QueueFixture after(Duration duration) {
    now = now.plus(duration);
    return this;
  }

  /** What a source-hosting adapter will report: the PR is mergeable into the target. */
  QueueFixture mergeable(long pr) {
    Entry e = state.activeEntry(pr).orElseThrow();
    Entry mergeable =
        new Entry(
            e.id(),
            e.prNumber(),
            e.sequence(),
            e.priority(),
            e.priorityDefaulted(),
            e.noBatch(),
            e.state(),
            e.stateChangedAt(),
            e.submittedAt(),
            e.pr(),
            Mergeability.MERGEABLE,
            e.impactedTargets(),
            e.verifiedByTestRun());
    state =
        state.withEntries(
            state.entries().stream().map(x -> x.id().equals(e.id()) ? mergeable : x).toList(),
            state.nextSequence());
    return this;
  }

  QueueFixture apply(QueueCommand command) {
    Decision decision = decide(command);
    if (!decision.isAccepted()) {
      throw new AssertionError("fixture command rejected: " + decision.rejection());
    }
    state = EventApplier.applyAll(state, decision.events());
    return this;
  }

  Decision decide(QueueCommand command) {
    return engine.decide(
        state, KEY, command, new CommandContext(UUID.randomUUID().toString(), now));
  }

  QueueAggregate state() {
    return state;
  }

  Instant now() {
    return now;
  }

  static QueueSettingsPatch patch(QueueState state, QueueMode mode, Long notReadyTimeoutHours) {
    QueueSettingsPatch e = QueueSettingsPatch.empty();
    return new QueueSettingsPatch(
        state,
        mode,
        e.concurrency(),
        e.bisectionConcurrency(),
        e.testingTimeoutMinutes(),
        e.pendingFailureDepth(),
        e.canOptimisticallyMerge(),
        e.batch(),
        e.batchingMinSize(),
        e.batchingMaxWaitTimeMinutes(),
        e.createPrsForTestingBranches(),
        e.commentsEnabled(),
        e.commandsEnabled(),
        e.statusCheckEnabled(),
        e.extensionEnabled(),
        e.labelCommandsEnabled(),
        e.stateLabelsEnabled(),
        e.enqueueingLabel(),
        e.clearEnqueueingLabel(),
        e.requiredStatuses(),
        e.deleteRequiredStatuses(),
        e.allowedBotSubmitters(),
        e.directMergeMode(),
        e.optimizationMode(),
        e.mergeMethod(),
        notReadyTimeoutHours);
  }

  static List<String> eventNames(Decision decision) {
    return decision.events().stream().map(ev -> ev.getClass().getSimpleName()).toList();
  }
}
