package dev.trainyard.worker.engine;

import dev.trainyard.common.command.ImpactedTargets;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.queue.MergeWindow;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.OptimizationMode;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.Priority;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.QueueSettingsPatch;
import dev.trainyard.common.queue.QueueState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

/**
 * Builds queue states the way they arise: by running commands through the real engine with a test
 * clock. Reads like the scenario: {@code queue().submitted(12).after(hours(2))}.
 */
final class QueueFixture {
  static final QueueKey KEY = QueueKey.of("acme-org", "github.com", "acme", "rocket", "main");
  static final Instant T0 = Instant.parse("2026-09-17T10:00:00Z");

  private final QueueEngine engine;
  private QueueAggregate state;
  private final List<QueueEvent> log = new java.util.ArrayList<>();
  private Instant now = T0;

  private QueueFixture(QueueEngine engine) {
    this.engine = engine;
  }

  static QueueFixture absent() {
    return new QueueFixture(new QueueEngine());
  }

  /** A queue whose engine lets it hold at most {@code maxQueuePrs} pull requests. */
  static QueueFixture queue(int maxQueuePrs) {
    return new QueueFixture(new QueueEngine(maxQueuePrs, Duration.ZERO))
        .apply(new QueueCommand.CreateQueue(QueueMode.SINGLE, 5));
  }

  /** A queue whose engine waits {@code settle} after the last conclusion on plain git. */
  static QueueFixture settling(Duration settle) {
    return new QueueFixture(new QueueEngine(QueueEngine.DEFAULT_MAX_QUEUE_PRS, settle))
        .apply(new QueueCommand.CreateQueue(QueueMode.SINGLE, 5));
  }

  /** The source host declares {@code checks} required on the target (GitHub). */
  QueueFixture declared(dev.trainyard.common.command.RequiredCheck... checks) {
    return apply(new QueueCommand.RecordRequiredChecks(List.of(checks), null));
  }

  /** The source host refuses to say which checks are required. */
  QueueFixture undeclarable(String problem) {
    return apply(new QueueCommand.RecordRequiredChecks(List.of(), problem));
  }

  /** GitHub delivers check run {@code checkRunId} ({@code context}) of one CI app. */
  QueueFixture checkRun(
      long pr, String context, dev.trainyard.common.command.CommitState ciState, long checkRunId) {
    return apply(
        new QueueCommand.ReportStatus(
            runOf(pr).headSha(), context, ciState, null, null, 15368L, checkRunId));
  }

  /** The app {@code appId} reports check {@code context} on the head of {@code pr}'s run. */
  QueueFixture check(
      long pr, String context, dev.trainyard.common.command.CommitState ciState, Long appId) {
    return apply(
        new QueueCommand.ReportStatus(runOf(pr).headSha(), context, ciState, null, null, appId));
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

  /** Time passed: the queue's timer fires. */
  QueueFixture tick() {
    return apply(new QueueCommand.Tick());
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
            e.verifiedByTestRun(),
            e.testRunId(),
            e.isolated(),
            e.submittedSha(),
            e.dependsOn(),
            e.landedDependencies(),
            e.directMergeDeclined(),
            false,
            e.stack(),
            e.predictedRisk());
    state =
        state.withEntries(
            state.entries().stream().map(x -> x.id().equals(e.id()) ? mergeable : x).toList(),
            state.nextSequence());
    return this;
  }

  /** The source host reports the PR open, mergeable, at head {@code sha-<pr>}: it gets planned. */
  QueueFixture ready(long pr) {
    return apply(observedCommand(pr));
  }

  /** {@code pr} submitted saying it depends on {@code on} (API.md §2 {@code dependsOn}). */
  QueueFixture dependent(long pr, Long... on) {
    return apply(new QueueCommand.SubmitPullRequest(pr, null, null, null, List.of(on)));
  }

  /** {@code pr} submitted with its stack ({@code stack: true}). */
  QueueFixture submittedWithStack(long pr) {
    return apply(new QueueCommand.SubmitPullRequest(pr, null, null, null, null, true));
  }

  /** {@code pr} stacked on {@code on}: the host shows it based on {@code on}'s head branch. */
  QueueFixture stackedOn(long pr, long on) {
    return apply(stacked(pr, on));
  }

  /**
   * The host shows {@code pr} open and mergeable, based on the head branch {@code feature-<on>} of
   * PR {@code on} (a stack; the poller names it among the dependencies too).
   */
  static QueueCommand stacked(long pr, long on) {
    return mergeableOn(pr, "feature-" + on, List.of(on), List.of(), on);
  }

  /** {@code pr} open and mergeable at {@code sha-<pr>}, based on {@code base}, with these facts. */
  private static QueueCommand mergeableOn(
      long pr,
      String base,
      List<Long> dependsOn,
      List<dev.trainyard.common.command.HostDependency> hostDependencies,
      Long stackedOn) {
    return new QueueCommand.RecordPullRequestState(
        pr,
        true,
        "sha-" + pr,
        "Change " + pr,
        "dev" + pr,
        base,
        "feature-" + pr,
        Mergeability.MERGEABLE,
        null,
        dependsOn,
        hostDependencies,
        stackedOn);
  }

  /** {@code freezeQueue}: until unfrozen ({@code until} null) or {@code until}. */
  QueueFixture frozen(Instant until) {
    return apply(new QueueCommand.FreezeQueue("release 4.2", until));
  }

  QueueFixture windows(MergeWindow... windows) {
    return updated(QueueSettingsPatch.mergeWindows(List.of(windows)));
  }

  /** Submitted and ready, in that order. */
  QueueFixture queued(long... prs) {
    for (long pr : prs) {
      submitted(pr).ready(pr);
    }
    return this;
  }

  /** The run of {@code pr}, live or concluded. */
  TestRun runOf(long pr) {
    Entry e =
        state
            .activeEntry(pr)
            .or(() -> state.concluded().stream().filter(c -> c.prNumber() == pr).findFirst())
            .orElseThrow();
    return state
        .runs()
        .any(e.testRunId())
        .orElseThrow(() -> new AssertionError("no run for " + pr));
  }

  /** The shell built the branch of {@code pr}'s run; its head is {@code head-<run id>}. */
  QueueFixture built(long pr) {
    return apply(builtCommand(this, pr));
  }

  QueueFixture builtAll() {
    for (TestRun run : state.runs().live()) {
      if (run.state() == RunState.BUILDING) {
        built(run.prs().get(0).number());
      }
    }
    return this;
  }

  /** CI reports {@code context} on the head of {@code pr}'s run. */
  QueueFixture status(long pr, String context, dev.trainyard.common.command.CommitState ciState) {
    return apply(new QueueCommand.ReportStatus(runOf(pr).headSha(), context, ciState, null, null));
  }

  QueueFixture green(long pr) {
    return status(pr, "ci/test", dev.trainyard.common.command.CommitState.SUCCESS);
  }

  QueueFixture red(long pr) {
    return status(pr, "ci/test", dev.trainyard.common.command.CommitState.FAILURE);
  }

  /** The shell landed {@code pr}'s run. */
  QueueFixture landed(long pr) {
    return apply(landedCommand(this, pr));
  }

  QueueFixture concurrency(long n) {
    return updated(settingsPatch(n, null));
  }

  /** A patch of the run settings the rules read: concurrency and required statuses. */
  private static QueueSettingsPatch settingsPatch(Long concurrency, List<String> required) {
    return patch(null, null, concurrency, required, null);
  }

  /** Batching on: up to {@code size} PRs a run; a partial batch waits {@code waitMinutes}. */
  QueueFixture batching(long size, long waitMinutes) {
    return updated(throughputPatch(null, null, null, true, size, waitMinutes, null));
  }

  /**
   * The self-tuning scheduler's settings: batch sizes chosen up to {@code batchingMaxSize} (null:
   * unchanged), and the speculation window narrowed on failures.
   */
  QueueFixture selfTuning(
      Boolean batchingAdaptive, Long batchingMaxSize, Boolean concurrencyAdaptive) {
    return updated(selfTuningPatch(batchingAdaptive, batchingMaxSize, concurrencyAdaptive));
  }

  static QueueSettingsPatch selfTuningPatch(
      Boolean batchingAdaptive, Long batchingMaxSize, Boolean concurrencyAdaptive) {
    return patch(
        null,
        null,
        null,
        null,
        null,
        Throughput.NONE.tuned(batchingAdaptive, batchingMaxSize, concurrencyAdaptive, null));
  }

  /** The CI minutes per merged PR adaptive batching may spend to cut waits (0: none). */
  QueueFixture ciBudget(long minutes) {
    return updated(
        patch(null, null, null, null, null, Throughput.NONE.tuned(null, null, null, minutes)));
  }

  /**
   * A queue whose CI spent {@code minutes} per merged PR lately (over a hundred merged PRs, so that
   * a run or two more barely move it), as its runs and merges would have counted it.
   */
  QueueFixture ciSpent(double minutes) {
    state = state.withHistory(state.history().withSpend(new CiSpend(minutes * 100, 100, now)));
    return this;
  }

  /**
   * A queue whose submits' predicted risks told its last 20 failed PRs (predicted at 0.9) from 380
   * merged ones (at 0.001), as their outcomes would have scored them: it spends by predictions.
   */
  QueueFixture predictionsProven() {
    return state.history().predictions().discriminates() ? this : predictionOutcomes(0.001, 0.9);
  }

  /**
   * A queue whose history scored 380 merged PRs predicted at {@code mergedAt} and then 20 failed
   * ones predicted at {@code failedAt} ({@link PredictionScore}).
   */
  QueueFixture predictionOutcomes(double mergedAt, double failedAt) {
    state =
        state.withHistory(
            state
                .history()
                .predicted(Collections.nCopies(380, mergedAt), false)
                .predicted(Collections.nCopies(20, failedAt), true));
    return this;
  }

  QueueFixture bisectionConcurrency(long n) {
    return updated(throughputPatch(n, null, null, null, null, null, null));
  }

  QueueFixture skippingRedundantTests() {
    return updated(
        throughputPatch(
            null, null, null, null, null, null, OptimizationMode.BISECTION_SKIP_REDUNDANT_TESTS));
  }

  /** Anti-flake settings: {@code pendingFailureDepth} and {@code canOptimisticallyMerge}. */
  QueueFixture antiFlake(long pendingFailureDepth, boolean optimisticMerge) {
    return updated(
        throughputPatch(null, pendingFailureDepth, optimisticMerge, null, null, null, null));
  }

  /** Submitted with {@code noBatch}, and ready. */
  QueueFixture queuedAlone(long pr) {
    apply(new QueueCommand.SubmitPullRequest(pr, null, true));
    return ready(pr);
  }

  private static QueueSettingsPatch throughputPatch(
      Long bisectionConcurrency,
      Long pendingFailureDepth,
      Boolean optimisticMerge,
      Boolean batch,
      Long batchSize,
      Long batchWaitMinutes,
      OptimizationMode optimization) {
    return patch(
        null,
        null,
        null,
        null,
        null,
        new Throughput(
            bisectionConcurrency,
            pendingFailureDepth,
            optimisticMerge,
            batch,
            batchSize,
            batchWaitMinutes,
            optimization,
            null,
            null,
            null,
            null));
  }

  /** Submitted with these impacted targets, and ready (parallel mode). */
  QueueFixture lane(long pr, String... targets) {
    return targeted(pr, ImpactedTargets.of(List.of(targets), "digest-" + pr));
  }

  /** Submitted with impacted targets {@code ALL}, and ready. */
  QueueFixture impactingAll(long pr) {
    return targeted(pr, ImpactedTargets.everything());
  }

  private QueueFixture targeted(long pr, ImpactedTargets targets) {
    submitted(pr);
    apply(new QueueCommand.SetImpactedTargets(pr, "", targets));
    return ready(pr);
  }

  /** The PR numbers of {@code pr}'s run, in the order they were tested. */
  List<Long> prsOfRunOf(long pr) {
    return runOf(pr).prs().stream().map(TestedPr::number).toList();
  }

  /** Why {@code pr} was last cancelled, from the events applied so far. */
  dev.trainyard.common.queue.CancellationReason cancellationOf(long pr) {
    String id =
        state
            .activeEntry(pr)
            .or(() -> state.concluded().stream().filter(c -> c.prNumber() == pr).findFirst())
            .orElseThrow()
            .id();
    return log.stream()
        .filter(e -> e instanceof QueueEvent.PullRequestCancelled c && c.entryId().equals(id))
        .map(e -> ((QueueEvent.PullRequestCancelled) e).reason())
        .reduce((a, b) -> b)
        .orElseThrow(() -> new AssertionError("pull request " + pr + " was not cancelled"));
  }

  PrState stateOf(long pr) {
    return state
        .activeEntry(pr)
        .or(() -> state.concluded().stream().filter(c -> c.prNumber() == pr).findFirst())
        .orElseThrow()
        .state();
  }

  static QueueCommand observedCommand(long pr) {
    return observedCommand(pr, "sha-" + pr, Mergeability.MERGEABLE, null);
  }

  /** The source host shows {@code pr} open at {@code sha}, onto main, with these facts. */
  static QueueCommand observedCommand(long pr, String sha, Mergeability mergeability, String hold) {
    return observedCommand(pr, sha, mergeability, hold, List.of());
  }

  /** ... and its description naming {@code dependsOn} in {@code Depends-On} lines. */
  static QueueCommand observedCommand(
      long pr, String sha, Mergeability mergeability, String hold, List<Long> dependsOn) {
    return new QueueCommand.RecordPullRequestState(
        pr, true, sha, "Change " + pr, "dev" + pr, "main", null, mergeability, hold, dependsOn);
  }

  /** {@code pr} ready, with what the host says of a dependency the queue does not know. */
  static QueueCommand observedWith(
      long pr, dev.trainyard.common.command.HostDependency dependency) {
    return mergeableOn(pr, "main", List.of(), List.of(dependency), null);
  }

  static QueueCommand builtCommand(QueueFixture q, long pr) {
    TestRun run = q.runOf(pr);
    // a bisection run is built where the batch it splits was
    String base =
        run.bisection()
            ? run.baseSha()
            : run.predecessorId() == null ? "target" : "head-" + run.predecessorId();
    return new QueueCommand.RecordTestBranch(run.id(), base, "head-" + run.id());
  }

  static QueueCommand landedCommand(QueueFixture q, long pr) {
    return new QueueCommand.RecordMerge(q.runOf(pr).id(), "landed-" + pr);
  }

  QueueFixture required(String... contexts) {
    return updated(settingsPatch(null, List.of(contexts)));
  }

  /** Applies a decision the test made with {@link #decide}, recording its PR transitions. */
  QueueFixture applyDecision(Decision decision) {
    TransitionLog.record(state, decision.events());
    log.addAll(decision.events());
    state = EventApplier.applyAll(state, decision.events());
    return this;
  }

  /** Applies the command if the engine accepts it (a user may be refused; the world goes on). */
  QueueFixture attempt(QueueCommand command) {
    Decision decision = decide(command);
    return decision.isAccepted() ? applyDecision(decision) : this;
  }

  QueueFixture apply(QueueCommand command) {
    Decision decision = decide(command);
    if (!decision.isAccepted()) {
      throw new AssertionError("fixture command rejected: " + decision.rejection());
    }
    return applyDecision(decision);
  }

  /** The engine's decision; planning that does not settle fails every test that reaches it. */
  Decision decide(QueueCommand command) {
    Decision decision =
        engine.decide(state, KEY, command, new CommandContext(UUID.randomUUID().toString(), now));
    if (decision.unsettled()) {
      throw new AssertionError(
          "the planning rules did not settle after " + command + "; they cycle: " + cycle(command));
    }
    return decision;
  }

  /** The first planning steps after {@code command}: which rule asked for which events. */
  private List<String> cycle(QueueCommand command) {
    CommandContext ctx = new CommandContext(UUID.randomUUID().toString(), now);
    QueueAggregate current =
        EventApplier.applyAll(state, new QueueEngine().decide(state, KEY, command, ctx).events());
    List<String> steps = new ArrayList<>();
    for (int step = 0; step < 12; step++) {
      for (PlanningRule rule : PlanningRules.ordered(Duration.ZERO)) {
        List<QueueEvent> planned = rule.decide(current, ctx);
        if (!planned.isEmpty()) {
          steps.add(rule.getClass().getSimpleName() + " " + planned);
          current = EventApplier.applyAll(current, planned);
          break;
        }
      }
    }
    return steps;
  }

  /** Every event applied so far, from the first command on. */
  List<QueueEvent> log() {
    return List.copyOf(log);
  }

  QueueAggregate state() {
    return state;
  }

  Instant now() {
    return now;
  }

  static QueueSettingsPatch mergeWindows(List<MergeWindow> windows) {
    return QueueSettingsPatch.mergeWindows(windows);
  }

  static QueueSettingsPatch patch(QueueState state, QueueMode mode, Long notReadyTimeoutHours) {
    return patch(state, mode, null, null, notReadyTimeoutHours);
  }

  private static QueueSettingsPatch patch(
      QueueState state,
      QueueMode mode,
      Long concurrency,
      List<String> required,
      Long notReadyTimeoutHours) {
    return patch(state, mode, concurrency, required, notReadyTimeoutHours, Throughput.NONE);
  }

  /** The throughput settings a patch may change (null: unchanged). */
  private record Throughput(
      Long bisectionConcurrency,
      Long pendingFailureDepth,
      Boolean optimisticMerge,
      Boolean batch,
      Long batchSize,
      Long batchWaitMinutes,
      OptimizationMode optimization,
      Boolean batchingAdaptive,
      Long batchingMaxSize,
      Boolean concurrencyAdaptive,
      Long ciBudget) {
    static final Throughput NONE =
        new Throughput(null, null, null, null, null, null, null, null, null, null, null);

    Throughput tuned(
        Boolean adaptiveBatches, Long maxSize, Boolean adaptiveWindow, Long budgetMinutes) {
      return new Throughput(
          bisectionConcurrency,
          pendingFailureDepth,
          optimisticMerge,
          batch,
          batchSize,
          batchWaitMinutes,
          optimization,
          adaptiveBatches,
          maxSize,
          adaptiveWindow,
          budgetMinutes);
    }
  }

  /** The one place the fixture spells out a patch: the settings its rules read. */
  private static QueueSettingsPatch patch(
      QueueState state,
      QueueMode mode,
      Long concurrency,
      List<String> required,
      Long notReadyTimeoutHours,
      Throughput t) {
    return new QueueSettingsPatch(
        state,
        mode,
        concurrency,
        t.bisectionConcurrency(),
        null,
        t.pendingFailureDepth(),
        t.optimisticMerge(),
        t.batch(),
        t.batchSize(),
        t.batchWaitMinutes(),
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        false,
        required,
        false,
        null,
        null,
        t.optimization(),
        null,
        notReadyTimeoutHours,
        null,
        t.batchingAdaptive(),
        t.batchingMaxSize(),
        t.concurrencyAdaptive(),
        null,
        false,
        t.ciBudget());
  }

  static List<String> eventNames(Decision decision) {
    return decision.events().stream().map(ev -> ev.getClass().getSimpleName()).toList();
  }
}
