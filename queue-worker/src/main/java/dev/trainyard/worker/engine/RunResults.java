package dev.trainyard.worker.engine;

import dev.trainyard.common.command.CommitState;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.command.QueueCommand.RecordBranchDeleted;
import dev.trainyard.common.command.QueueCommand.RecordMerge;
import dev.trainyard.common.command.QueueCommand.RecordMergeRefused;
import dev.trainyard.common.command.QueueCommand.RecordTestBranch;
import dev.trainyard.common.command.QueueCommand.RecordTestBranchConflict;
import dev.trainyard.common.command.QueueCommand.ReportStatus;
import dev.trainyard.common.github.CheckReports;
import dev.trainyard.worker.engine.QueueEvent.LandingRefused;
import dev.trainyard.worker.engine.QueueEvent.StatusReported;
import dev.trainyard.worker.engine.QueueEvent.TargetMoved;
import dev.trainyard.worker.engine.QueueEvent.TestBranchBuilt;
import dev.trainyard.worker.engine.QueueEvent.TestBranchConflicted;
import dev.trainyard.worker.engine.QueueEvent.TestBranchDeleted;
import dev.trainyard.worker.engine.QueueEvent.TestRunCleared;
import dev.trainyard.worker.engine.QueueEvent.TestRunFailed;
import dev.trainyard.worker.engine.QueueEvent.TestRunMerged;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What CI statuses and effect results do. A result that no longer matches the run (it was
 * cancelled, or the result arrives twice) changes nothing: effects repeat, results must not.
 */
final class RunResults {
  /**
   * Distinct CI contexts one test run keeps: far more than any real pipeline reports, and few
   * enough that a client reporting endless new contexts cannot grow the queue's document.
   */
  static final int MAX_STATUSES_PER_RUN = 100;

  /** How often results for commits no live run has are written down (see {@link #testResults}). */
  static final Duration RESULTS_SEEN_EVERY = Duration.ofHours(1);

  private RunResults() {}

  /**
   * A status with a new context for a run that holds {@link #MAX_STATUSES_PER_RUN} already, and
   * which does not decide the run (the queue names its checks, and not this one): refused, so the
   * reporter hears of the limit. One that decides is taken: see {@link #status}.
   */
  static Optional<Rejection> beyondLimits(QueueAggregate state, QueueCommand command) {
    if (!(command instanceof ReportStatus c) || decides(state, c)) {
      return Optional.empty();
    }
    return full(state, c)
        .map(
            r ->
                Rejection.limitReached(
                    "test run "
                        + r.id()
                        + " holds statuses of "
                        + MAX_STATUSES_PER_RUN
                        + " contexts, the most a run keeps; report again on one of them"));
  }

  /**
   * A test branch whose builder did not find every PR head of its run in it: two builders raced, or
   * the host moved the branch under one. Not recorded (a green run on it would land a PR it never
   * tested as merged); the run stays building and is built again.
   */
  static Optional<Rejection> incomplete(QueueAggregate state, QueueCommand command) {
    if (!(command instanceof RecordTestBranch c) || c.containedHeads() == null) {
      return Optional.empty();
    }
    return building(state, c.testRunId())
        .flatMap(
            r ->
                r.prs().stream()
                    .filter(pr -> !c.containedHeads().contains(pr.sha()))
                    .findFirst()
                    .map(
                        missing ->
                            Rejection.invalidState(
                                "test branch commit "
                                    + c.headSha()
                                    + " of run "
                                    + r.id()
                                    + " does not contain the head "
                                    + missing.sha()
                                    + " of PR #"
                                    + missing.number()
                                    + ": not recorded; the run is built again")));
  }

  /** The live run of {@code c}'s commit when it is full and {@code c} names a new context. */
  private static Optional<TestRun> full(QueueAggregate state, ReportStatus c) {
    return state.runs().live().stream()
        .filter(r -> c.sha().equals(r.headSha()))
        .filter(r -> r.statuses().size() >= MAX_STATUSES_PER_RUN)
        .filter(r -> r.statuses().stream().noneMatch(s -> s.sameCheck(c.context(), c.appId())))
        .findFirst();
  }

  /** Whether {@code c}'s context counts in the verdict of its run under the queue's check rule. */
  private static boolean decides(QueueAggregate state, ReportStatus c) {
    return !(CheckRule.of(state, Duration.ZERO) instanceof CheckRule.Named named)
        || named.checks().stream().anyMatch(check -> check.matches(c.context(), c.appId()));
  }

  static List<QueueEvent> decide(QueueAggregate state, QueueCommand command, CommandContext ctx) {
    if (command instanceof ReportStatus c) {
      return status(state, c, ctx);
    } else if (command instanceof RecordTestBranch c) {
      return building(state, c.testRunId())
          .<List<QueueEvent>>map(
              r ->
                  List.of(
                      new TestBranchBuilt(
                          r.id(), c.baseSha(), c.headSha(), ctx.now(), c.testPrNumber())))
          .orElse(List.of());
    } else if (command instanceof QueueCommand.RecordDirectMergeRefused c) {
      return building(state, c.testRunId())
          .filter(TestRun::direct)
          .<List<QueueEvent>>map(
              r ->
                  List.of(
                      new QueueEvent.DirectMergeDeclined(
                          r.id(), Reasons.DIRECT_MERGE_NOT_POSSIBLE, ctx.now())))
          .orElse(List.of());
    } else if (command instanceof RecordTestBranchConflict c) {
      return building(state, c.testRunId())
          .<List<QueueEvent>>map(r -> List.of(new TestBranchConflicted(r.id(), c.prNumber())))
          .orElse(List.of());
    } else if (command instanceof RecordMerge c) {
      return Lanes.passedHead(state, c.testRunId())
          .<List<QueueEvent>>map(r -> List.of(new TestRunMerged(r.id(), c.targetSha(), ctx.now())))
          .orElse(List.of());
    } else if (command instanceof QueueCommand.RecordPartialMerge c) {
      // recorded whatever holds landing now (a pause, a freeze): GitHub merged them
      return Lanes.passedHead(state, c.testRunId())
          .map(r -> partlyMerged(state, r, c, ctx))
          .orElse(List.of());
    } else if (command instanceof QueueCommand.RecordLandingHeld c) {
      return landing(state, c.testRunId()).map(r -> held(state, r, c, ctx)).orElse(List.of());
    } else if (command instanceof RecordMergeRefused c) {
      return landing(state, c.testRunId()).map(r -> refused(state, c, ctx)).orElse(List.of());
    } else if (command instanceof QueueCommand.RecordTestResults c) {
      return testResults(state, c, ctx);
    } else if (command instanceof RecordBranchDeleted c) {
      boolean finished =
          state.runs().finished().stream().anyMatch(r -> r.id().equals(c.testRunId()));
      return finished ? List.of(new TestBranchDeleted(c.testRunId())) : List.of();
    }
    throw new IllegalArgumentException("no rule for " + command.getClass().getSimpleName());
  }

  /**
   * A status of a concluded run's head is late and ignored, unless a live run tests the same
   * commit; a repeated report changes nothing.
   */
  private static List<QueueEvent> status(QueueAggregate state, ReportStatus c, CommandContext ctx) {
    boolean live = state.runs().live().stream().anyMatch(r -> c.sha().equals(r.headSha()));
    boolean concluded =
        !live && state.runs().finished().stream().anyMatch(r -> c.sha().equals(r.headSha()));
    Optional<RunStatus> known =
        state.runs().live().stream()
            .filter(r -> c.sha().equals(r.headSha()))
            .flatMap(r -> r.statuses().stream())
            .filter(s -> s.sameCheck(c.context(), c.appId()))
            .findFirst();
    boolean same =
        known.isPresent()
            && known.get().state() == c.state()
            && Objects.equals(known.get().url(), c.url())
            && Objects.equals(known.get().description(), c.description());
    if (concluded || same || stale(known, c)) {
      return List.of();
    }
    if (full(state, c).isPresent()
        && !(CheckRule.of(state, Duration.ZERO) instanceof CheckRule.Named)) {
      // every reported context counts, and this one would not be kept: the run cannot pass
      return state.runs().live().stream()
              .filter(r -> c.sha().equals(r.headSha()))
              .flatMap(r -> r.statuses().stream())
              .anyMatch(s -> s.context().equals(CheckReports.TOO_MANY))
          ? List.of()
          : List.of(reported(CheckReports.tooMany(c.sha(), MAX_STATUSES_PER_RUN), ctx));
    }
    return List.of(reported(c, ctx));
  }

  private static StatusReported reported(ReportStatus c, CommandContext ctx) {
    return new StatusReported(
        c.sha(),
        new RunStatus(
            c.context(),
            c.state(),
            c.url(),
            c.description(),
            c.appId(),
            c.checkRunId(),
            ctx.now()));
  }

  /**
   * A late delivery of a check run's start, after its conclusion was recorded: GitHub does not
   * deliver in order. A new check run of the same name (a re-run) has another id and counts.
   */
  private static boolean stale(Optional<RunStatus> known, ReportStatus c) {
    return known.isPresent()
        && c.checkRunId() != null
        && c.checkRunId().equals(known.get().checkRunId())
        && c.state() == CommitState.PENDING
        && known.get().state() != CommitState.PENDING;
  }

  /**
   * The target moved under the run (someone pushed to it): every run is rebuilt on its new head.
   * The merge method could not replay a PR, or the host refused the landing (its words are kept on
   * the queue: testing again would not change them): the run fails and the runs behind are
   * re-planned.
   */
  private static List<QueueEvent> refused(
      QueueAggregate state, RecordMergeRefused c, CommandContext ctx) {
    List<TestRun> chain = state.runs().chain();
    List<QueueEvent> events = new ArrayList<>();
    if (c.conflictPrNumber() == null && c.refusal() == null) {
      String reason = Reasons.TARGET_BRANCH_MOVED;
      if (c.targetSha() != null) {
        events.add(new TargetMoved(c.targetSha()));
      }
      events.addAll(RunPlanner.cancelFrom(chain, 0, reason, reason, ctx.now()));
      return events;
    }
    TestRun run = state.runs().live(c.testRunId()).orElseThrow();
    List<TestRun> lane = Lanes.from(chain, run);
    if (c.refusal() != null) {
      events.add(new LandingRefused(c.testRunId(), c.refusal()));
    }
    if (c.treeDiffers() && run.isBatch()) {
      // one PR of the batch cannot land as tested: nobody is failed for it; every PR of the batch
      // runs alone from now on, so the innocent land and that one is refused on its own
      events.add(new TestRunCleared(c.testRunId(), true, ctx.now()));
      String changed = Reasons.PREREQUISITE_MERGE_ITEM_CHANGED;
      events.addAll(RunPlanner.cancelFrom(lane, 1, changed, changed, ctx.now()));
      return events;
    }
    String reason =
        c.treeDiffers()
            ? Reasons.LANDED_TREE_DIFFERS
            : c.refusal() != null ? Reasons.MERGE_REFUSED : Reasons.MERGE_CONFLICT;
    events.add(new TestRunFailed(c.testRunId(), reason, ctx.now()));
    String behind = Reasons.PREREQUISITE_MERGE_ITEM_FAILED;
    events.addAll(RunPlanner.cancelFrom(lane, 1, behind, behind, ctx.now()));
    return events;
  }

  /**
   * The host landed a prefix of the batch and refused the next PR: that prefix is merged whatever
   * happens to the rest; the rest are not failed (CI passed them) but tested again, each alone, so
   * a refusal that stands is told of the PR it concerns. The runs behind were built on the whole
   * batch and are rebuilt.
   */
  private static List<QueueEvent> partlyMerged(
      QueueAggregate state, TestRun run, QueueCommand.RecordPartialMerge c, CommandContext ctx) {
    List<Long> merged =
        run.prs().stream().map(TestedPr::number).filter(c.mergedPrNumbers()::contains).toList();
    List<QueueEvent> events = new ArrayList<>();
    String why =
        "GitHub merged "
            + merged.stream().map(n -> "#" + n).toList()
            + " of the batch, then refused #"
            + c.stoppedAt()
            + ": "
            + c.refusal()
            + "; the rest of the batch is tested again, each pull request alone";
    String changed = Reasons.PREREQUISITE_MERGE_ITEM_CHANGED;
    events.addAll(
        RunPlanner.cancelFrom(
            Lanes.from(state.runs().chain(), run), 1, changed, changed, ctx.now()));
    events.add(new LandingRefused(run.id(), why));
    events.add(
        new QueueEvent.TestRunPartlyMerged(
            run.id(), merged, c.targetSha(), Reasons.BATCH_PARTLY_MERGED, ctx.now()));
    return events;
  }

  /**
   * The host holds a PR of the run that was to land: it takes the host's hold now (the next read of
   * the PR says the same), the run and the runs behind it are cancelled, and the held PR waits not
   * ready while the others are tested again.
   */
  private static List<QueueEvent> held(
      QueueAggregate state, TestRun run, QueueCommand.RecordLandingHeld c, CommandContext ctx) {
    List<QueueEvent> events = new ArrayList<>();
    events.add(
        new LandingRefused(run.id(), "GitHub holds #" + c.prNumber() + " at landing: " + c.why()));
    run.prs().stream()
        .filter(pr -> pr.number() == c.prNumber())
        .flatMap(pr -> state.entry(pr.entryId()).stream())
        .findFirst()
        .ifPresent(
            e -> {
              PullRequestInfo pr = e.pr();
              events.add(
                  new QueueEvent.PullRequestObserved(
                      e.id(), pr.heldFor(c.why()), e.mergeability()));
            });
    String held = Reasons.LANDING_HELD;
    String changed = Reasons.PREREQUISITE_MERGE_ITEM_CHANGED;
    events.addAll(
        RunPlanner.cancelFrom(Lanes.from(state.runs().chain(), run), 0, held, changed, ctx.now()));
    return events;
  }

  /**
   * Test results for a live run's head are kept with it. Those of another commit (a feature
   * branch's CI, a run that already ended) only tell the queue that its CI uploads results, which
   * it writes down once per {@link #RESULTS_SEEN_EVERY} so uploads do not each write every queue.
   */
  private static List<QueueEvent> testResults(
      QueueAggregate state, QueueCommand.RecordTestResults c, CommandContext ctx) {
    Optional<TestRun> run =
        state.runs().live().stream().filter(r -> c.commitSha().equals(r.headSha())).findFirst();
    Instant seen = state.history().lastTestResultsAt();
    if (run.isEmpty() && seen != null && seen.plus(RESULTS_SEEN_EVERY).isAfter(ctx.now())) {
      return List.of();
    }
    int unexcused =
        run.map(r -> unexcused(c, r.prs().stream().map(TestedPr::number).toList()))
            .orElse(c.unexcusedFailures());
    return List.of(
        new QueueEvent.TestResultsRecorded(
            run.map(TestRun::id).orElse(null), c.failedTests(), unexcused, ctx.now()));
  }

  /**
   * The upload's unexcused failures for a run of {@code ownPrs}: a test excused only by flakes seen
   * on the run's own PRs is not excused (a PR that makes a test flaky through its own re-run never
   * excuses its failure). A command of before lists none.
   */
  static int unexcused(QueueCommand.RecordTestResults c, List<Long> ownPrs) {
    if (c.excusedByPrs() == null) {
      return c.unexcusedFailures();
    }
    return c.unexcusedFailures()
        + (int) c.excusedByPrs().stream().filter(ownPrs::containsAll).count();
  }

  private static Optional<TestRun> building(QueueAggregate state, String runId) {
    return state
        .runs()
        .live(runId)
        .filter(r -> r.state() == RunState.BUILDING && r.failureReason() == null);
  }

  /** The run, if it is the one that may land now. */
  private static Optional<TestRun> landing(QueueAggregate state, String runId) {
    return Lanes.landable(state).filter(r -> r.id().equals(runId));
  }
}
