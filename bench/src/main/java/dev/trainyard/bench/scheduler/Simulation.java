package dev.trainyard.bench.scheduler;

import dev.trainyard.common.command.CommitState;
import dev.trainyard.common.command.ImpactedTargets;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.OptimizationMode;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.QueueSettingsPatch;
import dev.trainyard.worker.engine.CommandContext;
import dev.trainyard.worker.engine.Decision;
import dev.trainyard.worker.engine.Effect;
import dev.trainyard.worker.engine.Effects;
import dev.trainyard.worker.engine.Entry;
import dev.trainyard.worker.engine.EventApplier;
import dev.trainyard.worker.engine.Forecast;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.QueueEngine;
import dev.trainyard.worker.engine.QueueEvent;
import dev.trainyard.worker.engine.TestRun;
import dev.trainyard.worker.engine.TestedPr;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;

/**
 * A seeded discrete-event simulation of one queue driven by the real engine: every command goes
 * through {@link QueueEngine#decide}, every effect the state asks for ({@link QueueEngine#effects})
 * is carried out by a simulated source host at once, and a simulated CI reports each test branch
 * after its run time — red when it holds a broken PR, or as a flake.
 */
final class Simulation {
  private static final QueueKey KEY = QueueKey.of("bench", "sim", "acme", "rocket", "main");
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private record Due(Instant at, long order, Runnable action) {}

  private final Scenario scenario;
  private final Random random;
  private final QueueEngine engine = new QueueEngine();
  private final PriorityQueue<Due> agenda =
      new PriorityQueue<>(
          (a, b) ->
              a.at().equals(b.at())
                  ? Long.compare(a.order(), b.order())
                  : a.at().compareTo(b.at()));
  private final Map<String, List<Long>> commits = new HashMap<>();
  private final Set<String> done = new HashSet<>();
  private final Set<Long> broken = new HashSet<>();
  private final Map<Long, Instant> submitted = new HashMap<>();
  private final List<Duration> timeInQueue = new ArrayList<>();
  private final Map<Long, Instant> estimated = new HashMap<>();
  private final List<Duration> etaErrors = new ArrayList<>();
  private QueueAggregate state;
  private Instant now = START;
  private Instant lastTick;
  private final Instant end;
  private String target = "t0";
  private long order;
  private long nextPr = 1;
  private long commands;
  private int ciRuns;
  private int bisectionRuns;
  private final Set<String> built = new HashSet<>();
  private int wastedRuns;
  private int halvesLanded;
  private int merged;
  private int wronglyFailed;
  private int brokenMerged;

  Simulation(Scenario scenario) {
    this.scenario = scenario;
    this.random = new Random(scenario.seed());
    this.end = START.plus(Duration.ofHours(scenario.hours()));
    commits.put(target, List.of());
  }

  Result run() {
    QueueMode mode = scenario.lanes() > 0 ? QueueMode.PARALLEL : QueueMode.SINGLE;
    apply(new QueueCommand.CreateQueue(mode, scenario.concurrency()));
    apply(new QueueCommand.UpdateQueue(settings()));
    topUp();
    while (!agenda.isEmpty() && agenda.peek().at().isBefore(end)) {
      Due next = agenda.poll();
      now = next.at();
      next.action().run();
      topUp();
    }
    timeInQueue.sort(Duration::compareTo);
    etaErrors.sort(Duration::compareTo);
    return new Result(
        scenario,
        merged / (double) scenario.hours(),
        merged == 0 ? 0 : ciRuns / (double) merged,
        percentileHours(50),
        percentileHours(95),
        wronglyFailed,
        brokenMerged,
        merged,
        etaErrors.isEmpty() ? Double.NaN : etaErrors.get(etaErrors.size() / 2).toSeconds() / 3600.0,
        etaErrors.size(),
        new CiSpend(ciRuns, bisectionRuns, wastedRuns, halvesLanded));
  }

  /** Keeps {@code backlog} PRs waiting: arrivals above capacity. */
  private void topUp() {
    long waiting = state.entries().stream().filter(e -> e.testRunId() == null).count();
    for (long i = waiting; i < scenario.backlog(); i++) {
      long pr = nextPr++;
      double elapsed =
          Duration.between(START, now).toMillis() / (double) (scenario.hours() * 3_600_000L);
      if (random.nextDouble() < scenario.brokenRateAt(elapsed)) {
        broken.add(pr);
      }
      submitted.put(pr, now);
      apply(new QueueCommand.SubmitPullRequest(pr, null, null));
      if (scenario.lanes() > 0) {
        // the groups' target names were chosen so their signatures do not collide
        String group = "group-" + (pr % scenario.lanes());
        apply(
            new QueueCommand.SetImpactedTargets(pr, "", ImpactedTargets.of(List.of(group), group)));
      }
      apply(
          new QueueCommand.RecordPullRequestState(
              pr,
              true,
              "pr" + pr,
              "PR " + pr,
              "dev",
              "main",
              null,
              Mergeability.MERGEABLE,
              null,
              List.of()));
      // what getSubmittedPullRequest would answer now
      Forecast.of(state, now).estimatedMergeAt(pr, now).ifPresent(eta -> estimated.put(pr, eta));
    }
  }

  private void apply(QueueCommand command) {
    QueueAggregate before = state;
    Decision decision =
        engine.decide(state, KEY, command, new CommandContext("c" + commands++, now));
    if (!decision.isAccepted()) {
      return;
    }
    state = EventApplier.applyAll(state, decision.events());
    account(before);
    for (QueueEvent event : decision.events()) {
      if (event instanceof QueueEvent.TestRunCancelled c
          && built.contains(c.runId())
          && before.runs().live(c.runId()).filter(TestRun::bisection).isEmpty()) {
        wastedRuns++;
      } else if (event instanceof QueueEvent.BisectionHalfPassed) {
        halvesLanded++;
      }
    }
    for (Effect effect : Effects.of(state)) {
      String key = effect.getClass().getSimpleName() + "/" + effect.runId();
      if (done.add(key)) {
        schedule(now, () -> carryOut(effect));
      }
    }
    engine
        .nextDeadline(state, now)
        .filter(at -> at.isBefore(end) && !at.equals(lastTick))
        .ifPresent(
            at -> {
              lastTick = at;
              schedule(at, () -> apply(new QueueCommand.Tick()));
            });
  }

  private void carryOut(Effect effect) {
    if (effect instanceof Effect.BuildTestBranch b) {
      List<Long> content = new ArrayList<>(commits.get(b.baseSha() != null ? b.baseSha() : target));
      b.prs().stream().map(TestedPr::number).forEach(content::add);
      String head = "h" + order++;
      commits.put(head, content);
      ciRuns++;
      built.add(b.runId());
      if (state.runs().live(b.runId()).filter(TestRun::bisection).isPresent()) {
        bisectionRuns++;
      }
      apply(
          new QueueCommand.RecordTestBranch(
              b.runId(), b.baseSha() != null ? b.baseSha() : target, head));
      double factor = 0.8 + 0.4 * random.nextDouble();
      Duration ci = Duration.ofMillis((long) (scenario.ciTime().toMillis() * factor));
      boolean red =
          content.stream().anyMatch(broken::contains) || random.nextDouble() < scenario.flakeRate();
      schedule(
          now.plus(ci),
          () ->
              apply(
                  new QueueCommand.ReportStatus(
                      head, "ci", red ? CommitState.FAILURE : CommitState.SUCCESS, null, null)));
    } else if (effect instanceof Effect.LandRun l) {
      if (!target.equals(l.expectedTargetSha())) {
        apply(new QueueCommand.RecordMergeRefused(l.runId(), target, null));
        return;
      }
      if (l.expectedTargetSha().equals(l.builtOnSha())) {
        target = l.testedSha();
      } else { // another lane landed since: replay the run's own PRs on the target
        List<Long> content = new ArrayList<>(commits.get(target));
        l.prs().stream().map(TestedPr::number).forEach(content::add);
        target = "h" + order++;
        commits.put(target, content);
      }
      apply(new QueueCommand.RecordMerge(l.runId(), target));
    } else {
      apply(new QueueCommand.RecordBranchDeleted(effect.runId()));
    }
  }

  /** Counts PRs that concluded with the last command. */
  private void account(QueueAggregate before) {
    if (before == null) {
      return;
    }
    for (Entry e : before.entries()) {
      if (state.entry(e.id()).isPresent()) {
        continue;
      }
      Entry last = state.anyEntry(e.id()).orElse(null);
      if (last == null) {
        continue;
      }
      if (last.state() == PrState.MERGED) {
        merged++;
        timeInQueue.add(Duration.between(submitted.get(e.prNumber()), now));
        Instant eta = estimated.get(e.prNumber());
        if (eta != null) {
          etaErrors.add(Duration.between(eta, now).abs());
        }
        if (broken.contains(e.prNumber())) {
          brokenMerged++;
        }
      } else if (last.state() == PrState.FAILED && !broken.contains(e.prNumber())) {
        wronglyFailed++;
      }
    }
  }

  private void schedule(Instant at, Runnable action) {
    agenda.add(new Due(at, order++, action));
  }

  private double percentileHours(int p) {
    if (timeInQueue.isEmpty()) {
      return 0;
    }
    int index = (int) Math.ceil(p / 100.0 * timeInQueue.size()) - 1;
    return timeInQueue.get(Math.max(0, index)).toMinutes() / 60.0;
  }

  /**
   * The scenario's queue settings; no testing timeout (the simulated CI always answers). Batches
   * start full or after one minute, and bisection skips redundant tests.
   */
  private QueueSettingsPatch settings() {
    boolean batching = scenario.batchSize() > 1 || scenario.adaptiveBatching();
    return new QueueSettingsPatch(
        null,
        null,
        null,
        null,
        100_000L,
        scenario.pendingFailureDepth(),
        scenario.optimisticMerge(),
        batching,
        (long) scenario.batchSize(),
        1L,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        false,
        null,
        false,
        null,
        null,
        batching ? OptimizationMode.BISECTION_SKIP_REDUNDANT_TESTS : null,
        null,
        null,
        null,
        scenario.adaptiveBatching(),
        16L,
        scenario.adaptiveConcurrency());
  }

  /** What one scenario measured. */
  record Result(
      Scenario scenario,
      double mergedPerHour,
      double ciRunsPerMerge,
      double p50Hours,
      double p95Hours,
      int wronglyFailed,
      int brokenMerged,
      int merged,
      double etaErrorP50Hours,
      int estimatedMerges,
      CiSpend spend) {}

  /**
   * Where the CI runs went: {@code runs} in all, of which {@code bisection} tested halves of failed
   * batches and {@code thrownAway} were chain runs cancelled after their branch was built (the
   * speculation a failure ahead of them discarded); {@code halvesLanded} green halves landed as
   * tested.
   */
  record CiSpend(int runs, int bisection, int thrownAway, int halvesLanded) {}
}
