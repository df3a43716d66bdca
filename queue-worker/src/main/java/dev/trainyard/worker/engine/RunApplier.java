package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.DirectMergeMode;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.worker.engine.QueueEvent.StatusReported;
import dev.trainyard.worker.engine.QueueEvent.TestBranchBuilt;
import dev.trainyard.worker.engine.QueueEvent.TestRunBisected;
import dev.trainyard.worker.engine.QueueEvent.TestRunStarted;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/** The appliers of test-run events; see {@link EventApplier}. */
final class RunApplier {
  private RunApplier() {}

  static QueueAggregate started(QueueAggregate state, TestRunStarted e) {
    TestRun run = e.run();
    List<TestRun> live = new ArrayList<>(state.runs().live());
    live.add(run);
    QueueAggregate next = withBook(state, live, null, null, null);
    next = next.withEntries(next.entries(), next.nextSequence() + 1); // run ids derive from it
    return mapEntries(next, run, x -> x.inRun(run.id(), x.state(), run.createdAt()));
  }

  /**
   * The run's branch exists. Statuses CI already gave its head commit are its own: those of a
   * commit no run had yet, and those of a concluded run that tested the very same commit (a
   * bisection half and the chain run that re-tests it can build identical commits).
   */
  static QueueAggregate built(QueueAggregate state, TestBranchBuilt e) {
    List<UnclaimedStatus> unclaimed = new ArrayList<>();
    List<RunStatus> claimed = new ArrayList<>();
    for (UnclaimedStatus u : state.runs().unclaimed()) {
      if (u.sha().equals(e.headSha())) {
        claimed.add(u.status());
      } else {
        unclaimed.add(u);
      }
    }
    QueueAggregate next =
        mapRun(
            state,
            e.runId(),
            r -> {
              TestRun built = r.built(e.baseSha(), e.headSha(), e.at(), e.testPrNumber());
              for (RunStatus s : claimed) {
                built = built.withStatus(s);
              }
              return built;
            });
    next = withBook(next, null, null, unclaimed, null);
    TestRun run = next.runs().live(e.runId()).orElseThrow();
    return mapEntries(next, run, x -> x.inRun(run.id(), PrState.TESTING, e.at()));
  }

  static QueueAggregate conflicted(QueueAggregate state, String runId) {
    return mapRun(state, runId, TestRun::conflicted);
  }

  static QueueAggregate statusReported(QueueAggregate state, StatusReported e) {
    for (TestRun run : state.runs().live()) {
      if (e.sha().equals(run.headSha())) {
        return mapRun(state, run.id(), r -> r.withStatus(e.status()));
      }
    }
    return withBook(state, null, null, remember(state, e.sha(), List.of(e.status())), null);
  }

  static QueueAggregate passed(QueueAggregate state, String runId, Instant at) {
    QueueAggregate next =
        mapRun(
            verdict(state, runId, at, false), runId, r -> r.withState(RunState.PASSED, null, at));
    TestRun run = next.runs().live(runId).orElseThrow();
    return mapEntries(next, run, x -> x.verifiedBy(runId, at));
  }

  static QueueAggregate wentRed(QueueAggregate state, String runId, String reason, Instant at) {
    QueueAggregate next =
        mapRun(verdict(state, runId, at, true), runId, r -> r.withState(RunState.RED, reason, at));
    TestRun run = next.runs().live(runId).orElseThrow();
    return mapEntries(next, run, x -> x.inRun(runId, PrState.PENDING_FAILURE, at));
  }

  /** The run leaves the chain in {@code finalState}; its PRs conclude as {@code prState}. */
  static QueueAggregate concluded(
      QueueAggregate state,
      String runId,
      RunState finalState,
      String reason,
      PrState prState,
      Instant at) {
    TestRun run = state.runs().live(runId).orElseThrow().withState(finalState, reason, at);
    QueueAggregate next =
        finish(finalState == RunState.FAILED ? verdict(state, runId, at, true) : state, run);
    if (Reasons.TEST_RUN_REQUIRED_STATUS_FAILED.equals(reason)
        || Reasons.TEST_RUN_TIMEOUT.equals(reason)) {
      next = outcomes(next, predictedRisks(run.prs()), true, at);
    }
    for (String entryId : run.entryIds()) {
      if (next.entry(entryId).isPresent()) {
        next = EventApplier.conclude(next, entryId, prState, at);
      }
    }
    return next;
  }

  /** The run's PRs merged; the PRs that depend on them no longer wait for them. */
  static QueueAggregate landed(QueueAggregate state, String runId, String targetSha, Instant at) {
    List<TestedPr> prs = state.runs().live(runId).orElseThrow().prs();
    List<Long> merged = prs.stream().map(TestedPr::number).toList();
    QueueAggregate next = concluded(state, runId, RunState.SUCCEEDED, null, PrState.MERGED, at);
    next =
        next.withEntries(
            next.entries().stream().map(x -> x.withLanded(merged)).toList(), next.nextSequence());
    // the time to the next landing is work only while a PR that can be tested waits
    boolean busy = next.entries().stream().anyMatch(x -> x.state() != PrState.NOT_READY);
    next = next.withHistory(next.history().landed(at, merged.size(), busy));
    next = outcomes(next, predictedRisks(prs), false, at);
    return withBook(next, null, null, null, new Landed(runId, targetSha));
  }

  /**
   * The host landed {@code merged} of the run's PRs: they conclude merged (their dependents no
   * longer wait for them); the run leaves as cancelled and its other PRs wait again, each alone.
   */
  static QueueAggregate partlyLanded(
      QueueAggregate state, String runId, List<Long> merged, String targetSha, Instant at) {
    TestRun run = state.runs().live(runId).orElseThrow().withState(RunState.CANCELLED, null, at);
    QueueAggregate next = finish(state, run);
    for (TestedPr pr : run.prs()) {
      if (merged.contains(pr.number()) && next.entry(pr.entryId()).isPresent()) {
        next = EventApplier.conclude(next, pr.entryId(), PrState.MERGED, at);
      }
    }
    next =
        next.withEntries(
            next.entries().stream()
                .map(
                    x ->
                        run.contains(x.id())
                            ? x.inRun(null, PrState.PENDING, at).alone().withLanded(merged)
                            : x.withLanded(merged))
                .toList(),
            next.nextSequence());
    boolean busy = next.entries().stream().anyMatch(x -> x.state() != PrState.NOT_READY);
    next = next.withHistory(next.history().landed(at, merged.size(), busy));
    List<TestedPr> landed = run.prs().stream().filter(p -> merged.contains(p.number())).toList();
    next = outcomes(next, predictedRisks(landed), false, at);
    return withBook(next, null, null, null, new Landed(runId, targetSha));
  }

  /**
   * The self-tuning scheduler's history learns how PRs ended, all {@code failed} or all merged: one
   * outcome per PR, and for each PR that carried a predicted risk ({@code risks}, null for one
   * without), how well the prediction did.
   */
  private static QueueAggregate outcomes(
      QueueAggregate state, List<Double> risks, boolean failed, Instant at) {
    long concurrency = Math.max(1, state.settings().concurrency());
    return state.withHistory(
        state.history().concluded(risks.size(), failed, concurrency, at).predicted(risks, failed));
  }

  /** Each PR's predicted risk when its run started (null: none). */
  private static List<Double> predictedRisks(List<TestedPr> prs) {
    List<Double> risks = new ArrayList<>(prs.size());
    prs.forEach(pr -> risks.add(pr.predictedRisk()));
    return risks;
  }

  static QueueAggregate cancelled(QueueAggregate state, String runId, Instant at) {
    TestRun run = state.runs().live(runId).orElseThrow().withState(RunState.CANCELLED, null, at);
    QueueAggregate next = finish(state, run);
    return mapEntries(next, run, x -> x.inRun(null, PrState.PENDING, at));
  }

  /** The direct run stops; its PR waits for a run of the usual kind. */
  static QueueAggregate directMergeDeclined(QueueAggregate state, String runId, Instant at) {
    TestRun run = state.runs().live(runId).orElseThrow().withState(RunState.CANCELLED, null, at);
    return mapEntries(finish(state, run), run, x -> x.directMergeDeclined(at));
  }

  /**
   * The red run leaves as failed; its PRs wait in the halves, pending. A red bisection run tested
   * again ({@code TESTS_RESTARTED_FLAKY}: one run of the same split, ADR 0055) leaves as cancelled,
   * as a chain run tested again does, and its run takes its place in the bisection's order.
   */
  static QueueAggregate bisected(QueueAggregate state, TestRunBisected e) {
    TestRun red = state.runs().live(e.runId()).orElseThrow();
    boolean again = Reasons.TESTS_RESTARTED_FLAKY.equals(e.reason());
    TestRun left = red.withState(again ? RunState.CANCELLED : RunState.FAILED, e.reason(), e.at());
    QueueAggregate next = finish(verdict(state, e.runId(), e.at(), true), left);
    List<TestRun> live = new ArrayList<>(next.runs().live());
    live.addAll(again ? state.runs().live().indexOf(red) : live.size(), e.halves());
    next = withBook(next, live, null, null, null);
    next = next.withEntries(next.entries(), next.nextSequence() + e.halves().size());
    for (TestRun half : e.halves()) {
      next = mapEntries(next, half, x -> x.inRun(half.id(), PrState.PENDING, e.at()));
    }
    return next;
  }

  /**
   * The queue's history gains the verdict of chain run {@code runId} when it had none yet (a red
   * that waited as a pending failure is counted when it went red, not again when it failed).
   */
  private static QueueAggregate verdict(
      QueueAggregate state, String runId, Instant at, boolean red) {
    TestRun run = state.runs().live(runId).orElseThrow();
    return run.bisection() || !run.isUndecided()
        ? state
        : state.withHistory(state.history().with(Duration.between(run.createdAt(), at), red));
  }

  /** The run knows more of its failed tests. */
  static QueueAggregate testResults(QueueAggregate state, QueueEvent.TestResultsRecorded e) {
    QueueAggregate next =
        e.runId() == null
            ? state
            : mapRun(state, e.runId(), r -> r.withTestResults(e.failedTests(), e.unexcused()));
    return next.withHistory(next.history().testResultsAt(e.at()));
  }

  /** The run's PRs had their one flaky red forgiven. */
  static QueueAggregate forgiven(QueueAggregate state, String runId) {
    TestRun run = state.runs().live(runId).orElseThrow();
    return mapEntries(state, run, Entry::retriedForFlakes);
  }

  static QueueAggregate bisectionStarted(QueueAggregate state, String runId, Instant at) {
    return mapRun(state, runId, r -> r.startedAt(at));
  }

  /** The green half joins the chain as its passed head; its PRs passed, verified by it. */
  static QueueAggregate halfPassed(QueueAggregate state, String runId, Instant at) {
    QueueAggregate next = mapRun(state, runId, r -> r.promoted(at));
    TestRun run = next.runs().live(runId).orElseThrow();
    return mapEntries(next, run, x -> x.verifiedBy(runId, at));
  }

  /** The bisection run leaves as cleared; its PRs wait for a run of the chain. */
  static QueueAggregate cleared(QueueAggregate state, String runId, boolean isolated, Instant at) {
    TestRun run = state.runs().live(runId).orElseThrow().withState(RunState.CLEARED, null, at);
    QueueAggregate next = finish(state, run);
    return mapEntries(
        next,
        run,
        x -> {
          Entry waiting = x.inRun(null, PrState.PENDING, at);
          return isolated ? waiting.alone() : waiting;
        });
  }

  static QueueAggregate rescued(QueueAggregate state, String runId, String byRunId, Instant at) {
    QueueAggregate next = mapRun(state, runId, r -> r.withState(RunState.PASSED, null, at));
    TestRun run = next.runs().live(runId).orElseThrow();
    return mapEntries(next, run, x -> x.verifiedBy(byRunId, at));
  }

  static QueueAggregate branchDeleted(QueueAggregate state, String runId) {
    List<TestRun> finished =
        state.runs().finished().stream().filter(r -> !r.id().equals(runId)).toList();
    return withBook(state, null, finished, null, null);
  }

  /**
   * The run leaves the live runs. What CI said of its head stays known for that commit, so a later
   * run that builds the same commit starts with those results.
   */
  private static QueueAggregate finish(QueueAggregate state, TestRun run) {
    List<TestRun> live =
        state.runs().live().stream().filter(r -> !r.id().equals(run.id())).toList();
    List<TestRun> finished = new ArrayList<>();
    finished.add(run);
    finished.addAll(state.runs().finished());
    List<UnclaimedStatus> known =
        run.headSha() == null
            ? state.runs().unclaimed()
            : remember(state, run.headSha(), run.statuses());
    return withBook(
        state,
        live,
        finished.subList(0, Math.min(finished.size(), RunBook.MAX_FINISHED)),
        known,
        null);
  }

  /**
   * The statuses kept for commits no live run heads: each of {@code statuses} replaces the one of
   * its context for {@code sha}, and only the newest {@link RunBook#MAX_UNCLAIMED} stay, except
   * those of a queued PR's head in {@code directMergeMode} {@code always}: a direct merge lands
   * that head on its own statuses, so none of them may be forgotten while it can (other commits'
   * statuses would otherwise push out a red one and leave an all-green subset). Those stay, at most
   * {@link RunResults#MAX_STATUSES_PER_RUN} per head, until the PR leaves the queue or its head
   * changes.
   */
  private static List<UnclaimedStatus> remember(
      QueueAggregate state, String sha, List<RunStatus> statuses) {
    List<UnclaimedStatus> known = new ArrayList<>(state.runs().unclaimed());
    for (RunStatus status : statuses) {
      known.removeIf(u -> u.sha().equals(sha) && u.status().context().equals(status.context()));
      known.add(new UnclaimedStatus(sha, status));
    }
    Set<String> pinned = directHeads(state);
    List<UnclaimedStatus> kept = new ArrayList<>();
    Map<String, Integer> perHead = new HashMap<>();
    int others = 0;
    for (int i = known.size() - 1; i >= 0; i--) { // newest first
      UnclaimedStatus u = known.get(i);
      boolean keep =
          pinned.contains(u.sha())
              ? perHead.merge(u.sha(), 1, Integer::sum) <= RunResults.MAX_STATUSES_PER_RUN
              : others++ < RunBook.MAX_UNCLAIMED;
      if (keep) {
        kept.add(u);
      }
    }
    java.util.Collections.reverse(kept);
    return List.copyOf(kept);
  }

  /** The heads of the queued PRs a direct merge may land as they are. */
  private static Set<String> directHeads(QueueAggregate state) {
    if (state.settings().directMergeMode() != DirectMergeMode.ALWAYS) {
      return Set.of();
    }
    Set<String> heads = new HashSet<>();
    for (Entry e : state.entries()) {
      if (e.pr() != null && e.pr().sha() != null) {
        heads.add(e.pr().sha());
      }
    }
    return heads;
  }

  private static QueueAggregate mapRun(
      QueueAggregate state, String runId, UnaryOperator<TestRun> change) {
    List<TestRun> live =
        state.runs().live().stream().map(r -> r.id().equals(runId) ? change.apply(r) : r).toList();
    return withBook(state, live, null, null, null);
  }

  /** Changes the entries of {@code run} that are still queued. */
  private static QueueAggregate mapEntries(
      QueueAggregate state, TestRun run, UnaryOperator<Entry> change) {
    List<Entry> entries =
        state.entries().stream().map(x -> run.contains(x.id()) ? change.apply(x) : x).toList();
    return state.withEntries(entries, state.nextSequence());
  }

  /** The run book with the given parts replaced (null keeps a part). */
  private static QueueAggregate withBook(
      QueueAggregate state,
      List<TestRun> live,
      List<TestRun> finished,
      List<UnclaimedStatus> unclaimed,
      Landed landed) {
    RunBook book = state.runs();
    return state.withRuns(
        new RunBook(
            live != null ? live : book.live(),
            finished != null ? finished : book.finished(),
            unclaimed != null ? unclaimed : book.unclaimed(),
            landed != null ? landed : book.landed()));
  }
}
