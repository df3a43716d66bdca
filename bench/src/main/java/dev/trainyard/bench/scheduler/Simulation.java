package dev.trainyard.bench.scheduler;

import dev.trainyard.common.command.CommitState;
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
 * after its run time — red when it holds a broken PR, or as a flake. In a team's world CI uploads
 * each run's test results before its status, classified by a {@link FlakyTestList} (not for Zuul's
 * window, which has no anti-flake).
 */
final class Simulation {
  private static final QueueKey KEY = QueueKey.of("bench", "sim", "acme", "rocket", "main");
  static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private record Due(Instant at, long order, Runnable action) {}

  private final Scenario scenario;
  private final Random random;
  private final QueueEngine engine;
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
  private final Set<Long> spanning = new HashSet<>();
  private final List<Duration> spanningTimes = new ArrayList<>();
  private final Map<Long, Instant> estimated = new HashMap<>();
  private final List<Duration> etaErrors = new ArrayList<>();
  private QueueAggregate state;
  private Instant now = START;
  private Instant lastTick;
  private final Instant end;
  private final Instant stop;
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
  private int windowNarrowed;
  private int brokenMerged;
  private final TeamWorld world;
  private final TeamLedger ledger;
  private final FlakyTestList flakyTests;
  private final Rival rival;
  private final ZuulWindow zuul = new ZuulWindow();
  private final BurstDetector bursts = new BurstDetector(Duration.ofMinutes(30));
  private long window;

  Simulation(Scenario scenario) {
    this(scenario, null);
  }

  Simulation(Scenario scenario, TeamWorkload team) {
    this(scenario, team, Rival.NONE);
  }

  /**
   * The scenario's queue in {@code team}'s world when it is given: its arrivals, PRs and CI runs
   * (the scenario's own arrivals, rates and CI time are then not used), with a drain phase; driven
   * by {@code rival}'s rule when it is one.
   */
  Simulation(Scenario scenario, TeamWorkload team, Rival rival) {
    this.scenario = scenario;
    this.rival = rival;
    this.world =
        team == null
            ? null
            : new TeamWorld(team, TeamWorkload.REFERENCE_CONCURRENCY, scenario.seed(), START);
    this.ledger = team == null ? null : new TeamLedger(world);
    this.flakyTests = team == null ? null : new FlakyTestList(world);
    this.random = new Random(scenario.seed());
    this.end = START.plus(Duration.ofHours(scenario.hours()));
    this.stop = world == null ? end : end.plus(Duration.ofHours(world.drainHours()));
    this.engine =
        new QueueEngine(
            QueueEngine.DEFAULT_MAX_QUEUE_PRS,
            Duration.ZERO,
            scenario.workload().spanBarrier() ? QueueEngine.SPAN_BARRIER : null);
    commits.put(target, List.of());
  }

  Result run() {
    QueueMode mode = scenario.lanes() > 0 ? QueueMode.PARALLEL : QueueMode.SINGLE;
    apply(new QueueCommand.CreateQueue(mode, scenario.concurrency()));
    apply(new QueueCommand.UpdateQueue(settings()));
    resizeWindow();
    Scenario.Workload w = scenario.workload();
    if (w.weekdayWindow()) {
      apply(
          new QueueCommand.UpdateQueue(
              QueueSettingsPatch.mergeWindows(
                  List.of(
                      MergeWindow.of(
                          0,
                          List.of("mon", "tue", "wed", "thu", "fri"),
                          "09:00",
                          "17:00",
                          "America/New_York")))));
    }
    if (w.freezes()) {
      for (Instant at = START.plus(Duration.ofHours(10)); at.isBefore(end); at = at.plus(DAY)) {
        Instant until = at.plus(Duration.ofHours(2));
        schedule(at, () -> apply(new QueueCommand.FreezeQueue("release", until)));
      }
    }
    boolean openLoop = w.arrivalsPerHour() > 0 || world != null;
    if (world != null) {
      scheduleTeamArrival();
    } else if (openLoop) {
      scheduleArrival();
    } else {
      topUp();
    }
    boolean stopped = false;
    while (!agenda.isEmpty() && agenda.peek().at().isBefore(stop)) {
      Due next = agenda.poll();
      now = next.at();
      next.action().run();
      if (!openLoop) {
        topUp();
      }
      if (world != null && (drained() || overflowed())) {
        stopped = true;
        break;
      }
    }
    // a team's run that neither drained nor overflowed went on until its stop
    now = stopped ? now : stop;
    // PRs still waiting at the end count with the time they have waited so far: a PR starved
    // for the whole run is not left out of its percentile
    for (Entry e : state.entries()) {
      Duration waited = Duration.between(submitted.get(e.prNumber()), end);
      if (spanning.contains(e.prNumber())) {
        spanningTimes.add(waited);
      }
    }
    spanningTimes.sort(Duration::compareTo);
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
        new CiSpend(ciRuns, bisectionRuns, wastedRuns, halvesLanded),
        percentileHours(spanningTimes, 95),
        spanningTimes.size(),
        windowNarrowed,
        ledger == null ? null : ledger.close(now, merged));
  }

  /**
   * The speculation window adaptive concurrency allows in {@code queue}: unbounded before the queue
   * exists, the queue's concurrency before its first verdict (the history's window is 0 until a run
   * concludes, and then starts at the concurrency: that first step is no narrowing).
   */
  private static long window(QueueAggregate queue) {
    if (queue == null) {
      return Long.MAX_VALUE;
    }
    long concurrency = Math.max(1, queue.settings().concurrency());
    long window = queue.history().window();
    return window < 1 ? concurrency : Math.min(concurrency, window);
  }

  /**
   * The queue holds more than {@link TeamLedger#UNSTABLE_AT} PRs: it does not keep up with its
   * arrivals, and running on only costs time (each command reads the whole queue). Its waiting PRs
   * count with what they waited so far.
   */
  private boolean overflowed() {
    if (state.entries().size() <= TeamLedger.UNSTABLE_AT) {
      return false;
    }
    ledger.overflowed(now);
    return true;
  }

  /** Arrivals have stopped and every PR has left the queue, none to come back. */
  private boolean drained() {
    return !now.isBefore(end) && state.entries().isEmpty() && ledger.returning() == 0;
  }

  /** The next arrival of the team's world, while arrivals last. */
  private void scheduleTeamArrival() {
    Instant at = world.nextArrival(now);
    if (at.isBefore(end)) {
      schedule(
          at,
          () -> {
            submitTeamPr(nextPr++);
            scheduleTeamArrival();
          });
    }
  }

  /**
   * Submits PR {@code pr} of the team's world: drawn on its first submit (broken, partner, the
   * queued PR it is stacked on, a push to come), submitted again by its author after it was pushed
   * to or taken out though good.
   */
  private void submitTeamPr(long pr) {
    TeamWorld.Pr drawn = world.pr(pr);
    if (drawn == null) {
      drawn = world.draw(pr);
      submitted.put(pr, now);
      ledger.arrived(pr, now);
      if (drawn.broken()) {
        broken.add(pr);
      }
      if (drawn.pushAfter() != null) {
        schedule(now.plus(drawn.pushAfter()), () -> pushTo(pr));
      }
    }
    Long parent = drawn.parent();
    List<Long> dependsOn =
        parent != null && state.activeEntry(parent).isPresent() ? List.of(parent) : null;
    Priority priority =
        rival == Rival.SUBMIT_QUEUE ? Priority.ofValue(Rival.rank(drawn.predicted())) : null;
    Boolean alone = null;
    if (rival == Rival.RISK_AWARE && drawn.predicted() >= Rival.RISKY) {
      priority = Priority.LOW;
      alone = true;
      schedule(now.plus(Rival.AGING), () -> age(pr));
    }
    Double predictedRisk = rival == Rival.PREDICTED_RISK ? drawn.predicted() : null;
    apply(
        new QueueCommand.SubmitPullRequest(
            pr, priority, alone, null, dependsOn, false, predictedRisk));
    apply(observed(pr, ledger.head(pr), null));
  }

  /** A risky PR still waiting after {@link Rival#AGING} queues at the default priority. */
  private void age(long pr) {
    state
        .activeEntry(pr)
        .filter(e -> e.testRunId() == null && e.priority().equals(Priority.LOW))
        .ifPresent(e -> apply(new QueueCommand.SubmitPullRequest(pr, Priority.DEFAULT, null)));
  }

  /** The author pushes to PR {@code pr} while it is queued: the queue takes it out. */
  private void pushTo(long pr) {
    if (state.activeEntry(pr).isEmpty()) {
      return;
    }
    ledger.pushed(pr);
    apply(observed(pr, ledger.head(pr), null));
  }

  private static final Duration DAY = Duration.ofDays(1);

  /** The next open-loop arrival, an exponential gap after now. */
  private void scheduleArrival() {
    double hours = -Math.log(1 - random.nextDouble()) / scenario.workload().arrivalsPerHour();
    schedule(
        now.plusMillis((long) (hours * 3_600_000)),
        () -> {
          submit(nextPr++);
          scheduleArrival();
        });
  }

  /** Keeps {@code backlog} PRs waiting: arrivals above capacity. */
  private void topUp() {
    long waiting = state.entries().stream().filter(e -> e.testRunId() == null).count();
    for (long i = waiting; i < scenario.backlog(); i++) {
      submit(nextPr++);
    }
  }

  /**
   * Submits PR {@code pr}: broken or not, its targets in parallel mode (one group, or two when it
   * spans), and the host's view of it (a draft for a while, when the workload has some).
   */
  private void submit(long pr) {
    double elapsed =
        Duration.between(START, now).toMillis() / (double) (scenario.hours() * 3_600_000L);
    if (random.nextDouble() < scenario.brokenRateAt(elapsed)) {
      broken.add(pr);
    }
    submitted.put(pr, now);
    apply(new QueueCommand.SubmitPullRequest(pr, null, null));
    if (scenario.lanes() > 0) {
      apply(new QueueCommand.SetImpactedTargets(pr, "", targets(pr)));
    }
    // drawn only where the workload has drafts, so the other rows keep their random streams
    double drafts = scenario.workload().notReadyRate();
    boolean draft = drafts > 0 && random.nextDouble() < drafts;
    apply(observed(pr, "pr" + pr, draft ? "it is a draft pull request" : null));
    if (draft) {
      schedule(
          now.plusMillis((long) (random.nextDouble() * 4 * 3_600_000)),
          () -> apply(observed(pr, "pr" + pr, null)));
    }
    // what getSubmittedPullRequest would answer now
    Forecast.of(state, now).estimatedMergeAt(pr, now).ifPresent(eta -> estimated.put(pr, eta));
  }

  /**
   * PR {@code pr}'s impacted targets: one group of each lane's; in a workload with spanning PRs
   * each group has two parts, a PR touches one part or both, and a spanning PR touches the first
   * part of its group and of the next one — so a lane's runs overlap it while some later PRs of its
   * groups (those touching only the second part) do not, and can keep its lanes busy. The group
   * names were chosen so their signatures do not collide.
   */
  private ImpactedTargets targets(long pr) {
    String group = "group-" + (pr % scenario.lanes());
    if (scenario.workload().spanningRate() == 0) {
      return ImpactedTargets.of(List.of(group), group);
    }
    List<String> parts;
    if (random.nextDouble() < scenario.workload().spanningRate()) {
      parts = List.of(group + "-a", "group-" + ((pr + 1) % scenario.lanes()) + "-a");
      spanning.add(pr);
    } else {
      parts =
          switch (random.nextInt(3)) {
            case 0 -> List.of(group + "-a");
            case 1 -> List.of(group + "-b");
            default -> List.of(group + "-a", group + "-b");
          };
    }
    return ImpactedTargets.of(parts, String.join("+", parts));
  }

  private static QueueCommand observed(long pr, String head, String hold) {
    return new QueueCommand.RecordPullRequestState(
        pr, true, head, "PR " + pr, "dev", "main", null, Mergeability.MERGEABLE, hold, List.of());
  }

  private void apply(QueueCommand command) {
    QueueAggregate before = state;
    Decision decision =
        engine.decide(state, KEY, command, new CommandContext("c" + commands++, now));
    if (!decision.isAccepted()) {
      return;
    }
    state = EventApplier.applyAll(state, decision.events());
    if (window(state) < window(before)) {
      windowNarrowed++;
    }
    account(before);
    for (QueueEvent event : decision.events()) {
      if (event instanceof QueueEvent.TestRunCancelled c
          && built.contains(c.runId())
          && before.runs().live(c.runId()).filter(TestRun::bisection).isEmpty()) {
        wastedRuns++;
      }
      if (event instanceof QueueEvent.TestRunCancelled c && ledger != null) {
        ledger.cancelled(c.runId(), now);
      } else if (event instanceof QueueEvent.BisectionHalfPassed) {
        halvesLanded++;
      } else if (event instanceof QueueEvent.FlakyFailureForgiven && ledger != null) {
        ledger.retested();
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
        .filter(at -> at.isBefore(stop) && !at.equals(lastTick))
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
      if (world != null) {
        if (state.runs().live(b.runId()).isEmpty()) {
          return; // cancelled before CI started it: no run, no minutes
        }
        TeamWorld.Run run = world.run(new HashSet<>(content), now);
        ledger.started(b.runId(), now, run);
        schedule(
            now.plus(run.duration()),
            () -> {
              ledger.ended(b.runId(), now);
              if (rival != Rival.ZUUL) { // Zuul reads no flaky-test list
                apply(flakyTests.upload(head, run));
              }
              apply(
                  new QueueCommand.ReportStatus(
                      head,
                      "ci",
                      run.red() ? CommitState.FAILURE : CommitState.SUCCESS,
                      null,
                      null));
            });
        return;
      }
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
    Set<String> active = new HashSet<>();
    state.entries().forEach(e -> active.add(e.id()));
    for (Entry e : before.entries()) {
      if (active.contains(e.id())) {
        continue;
      }
      Entry last = state.anyEntry(e.id()).orElse(null);
      if (last == null) {
        continue;
      }
      if (ledger != null) {
        concludeTeamPr(last);
        continue;
      }
      if (last.state() == PrState.MERGED) {
        merged++;
        timeInQueue.add(Duration.between(submitted.get(e.prNumber()), now));
        if (spanning.contains(e.prNumber())) {
          spanningTimes.add(Duration.between(submitted.get(e.prNumber()), now));
        }
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

  /**
   * A PR of the team's world left the queue: merged (broken merged when its tree breaks), or taken
   * out — submitted again by its author when good (10 min after a push, an hour after a failure or
   * a cancellation), left for good when broken.
   */
  private void concludeTeamPr(Entry last) {
    long pr = last.prNumber();
    Set<Long> tree = new HashSet<>(commits.get(target));
    if (last.state() == PrState.MERGED) {
      merged++;
      timeInQueue.add(Duration.between(submitted.get(pr), now));
      if (world.breaksWith(pr, tree)) {
        brokenMerged++;
      }
      ledger.merged(pr, now);
      zuul.merged();
      schedule(now, this::resizeWindow);
      return;
    }
    if (last.state() == PrState.FAILED) {
      zuul.failed();
      bursts.failed(now);
      schedule(now, this::resizeWindow);
    }
    if (world.pr(pr).broken() || !world.partners(pr).isEmpty()) {
      // broken, or one of a pair whose fate hangs on the order: its author takes it back
      ledger.left(pr);
      rebaseChildren(pr);
      return;
    }
    if (last.state() == PrState.FAILED) {
      wronglyFailed++;
      ledger.wronglyFailed(pr, last.testRunId());
    }
    Duration after = ledger.wasPushed(pr) ? Duration.ofMinutes(10) : Duration.ofHours(1);
    ledger.leaving();
    schedule(
        now.plus(after),
        () -> {
          ledger.returned();
          submitTeamPr(pr);
        });
  }

  /**
   * PR {@code parent} left without landing: the PRs stacked on it are rebased off it by their
   * authors (submitted again depending on nothing), or they would wait for it until the queue's
   * not-ready timeout.
   */
  private void rebaseChildren(long parent) {
    List<Long> children =
        state.entries().stream()
            .filter(e -> e.dependsOn() != null && e.dependsOn().contains(parent))
            .map(Entry::prNumber)
            .toList();
    for (long child : children) {
      schedule(
          now, () -> apply(new QueueCommand.SubmitPullRequest(child, null, null, null, List.of())));
    }
  }

  /**
   * The queue's concurrency set by the rival's window: Zuul's, or the risk-aware one's (one run in
   * a burst, the scenario's otherwise); sent only when it changes. After a PR concluded it runs as
   * the next step of the agenda, not inside the command that concluded it. Both windows follow
   * every queue's merges and failures; only the rival's is sent.
   */
  private void resizeWindow() {
    long size =
        switch (rival) {
          case ZUUL -> zuul.size();
          case RISK_AWARE -> bursts.inBurst(now) ? 1 : scenario.concurrency();
          default -> 0;
        };
    if (size > 0 && size != window) {
      window = size;
      apply(new QueueCommand.UpdateQueue(QueueSettingsPatch.concurrency(size)));
    }
  }

  private void schedule(Instant at, Runnable action) {
    agenda.add(new Due(at, order++, action));
  }

  private double percentileHours(int p) {
    return percentileHours(timeInQueue, p);
  }

  private static double percentileHours(List<Duration> sorted, int p) {
    if (sorted.isEmpty()) {
      return 0;
    }
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, index)).toMinutes() / 60.0;
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
        batching && scenario.workload().skipRedundant()
            ? OptimizationMode.BISECTION_SKIP_REDUNDANT_TESTS
            : null,
        null,
        null,
        null,
        scenario.adaptiveBatching(),
        16L,
        scenario.adaptiveConcurrency(),
        null,
        false,
        scenario.ciBudgetMinutes() > 0 ? scenario.ciBudgetMinutes() : null);
  }

  /**
   * What one scenario measured; {@code windowNarrowed}: how many commands narrowed the window of
   * adaptive concurrency.
   */
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
      CiSpend spend,
      double spanningP95Hours,
      int spanningPrs,
      int windowNarrowed,
      TeamLedger.Figures team) {}

  /**
   * Where the CI runs went: {@code runs} in all, of which {@code bisection} tested halves of failed
   * batches and {@code thrownAway} were chain runs cancelled after their branch was built (the
   * speculation a failure ahead of them discarded); {@code halvesLanded} green halves landed as
   * tested.
   */
  record CiSpend(int runs, int bisection, int thrownAway, int halvesLanded) {}
}
