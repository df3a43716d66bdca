package dev.trainyard.worker.engine;

import static dev.trainyard.common.command.RejectionType.INVALID_STATE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.CommitState;
import dev.trainyard.common.command.ImpactedTargets;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.queue.DirectMergeMode;
import dev.trainyard.common.queue.MergeWindow;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.Priority;
import dev.trainyard.common.queue.QueueSettingsPatch;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Seeded property tests: the real engine against a simulated source host and CI, with random
 * batching, bisection, anti-flake and self-tuning settings, in single mode or parallel mode with
 * random impacted targets. A broken PR (one that makes CI red) never lands, no PR lands twice or is
 * lost by a later landing, never more than {@code concurrency} chain runs (nor twice that waiting
 * to land) and {@code bisectionConcurrency} bisection runs are under test, every PR concludes once
 * CI answers, a good PR is never failed where nothing conflicts (bisection convicts only the
 * guilty), and replaying the events rebuilds the state. Some worlds add dependencies between PRs
 * (submitted in any order: a PR never lands before what it depends on, and one whose dependency
 * failed is cancelled, not failed), urgent PRs (which skip the line, dependencies or not), flaky CI
 * (a red run of good PRs now and then), merge windows in a zone with daylight saving, or freezes
 * that come and go (nothing lands outside a window or while frozen). The planning rules settle
 * after every command ({@link QueueFixture#decide}), and a PR fails only by a red run of its own
 * (one PR, reported red by CI): never on inference. A failing seed reruns with {@code
 * -Dtrainyard.seed=N}.
 */
class QueueSimulationTest {

  @Test
  void theQueueKeepsItsPromisesUnderRandomTraffic() {
    long first = Long.getLong("trainyard.seed", System.nanoTime());
    long halvesLanded = 0;
    // 60 worlds, and more (up to 600) until one of them reached the green-half rule (about one
    // in fifteen does), so that rule's landings are held to the same promises every time
    for (long seed = first;
        seed < first + 60 || (halvesLanded == 0 && seed < first + 600);
        seed++) {
      try {
        halvesLanded += new World(seed).run();
      } catch (AssertionError e) {
        throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
      }
    }
    assertThat(halvesLanded).as("green halves landed as tested, seeds from %d", first).isPositive();
  }

  /** A simulated repository: commits are the ordered PR numbers they contain. */
  static final class World {
    private final long seed;
    private final Random random;
    private final QueueFixture queue;
    private final long concurrency;
    private final long bisectionConcurrency;
    private final boolean parallel;
    private final boolean conflicts;
    private final Set<Long> broken = new HashSet<>();
    private final Set<Set<Long>> conflicting = new HashSet<>();
    private final Map<String, List<Long>> commits = new HashMap<>();
    private final Set<Long> submitted = new HashSet<>();
    private final Set<String> reported = new HashSet<>();
    private final Map<Long, List<Long>> dependsOn = new HashMap<>();
    private final List<MergeWindow> windows;
    private final boolean freezes;
    private final double flakeRate;
    private final boolean urgent;

    /** Red runs reported by CI: their PR count, and whether only a flake made them red. */
    private final Map<String, Integer> redRuns = new HashMap<>();

    private final Map<String, List<Long>> flakedRuns = new HashMap<>();
    private String target = "t0";
    private int shas;

    World(long seed) {
      this.seed = seed;
      this.random = new Random(seed);
      this.concurrency = 1 + random.nextInt(5);
      this.bisectionConcurrency = 1 + random.nextInt(3);
      this.parallel = random.nextInt(3) == 0;
      // replaying a lane onto another lane's landing is trusted (disjoint targets): no conflicts
      this.conflicts = !parallel && random.nextBoolean();
      this.queue =
          (parallel ? QueueFixture.parallelQueue() : QueueFixture.queue())
              .concurrency(concurrency)
              .bisectionConcurrency(bisectionConcurrency)
              .antiFlake(random.nextInt(3), random.nextBoolean());
      if (random.nextBoolean()) {
        queue.batching(2 + random.nextInt(3), random.nextInt(4));
      }
      if (random.nextBoolean()) {
        queue.skippingRedundantTests();
      }
      if (random.nextInt(3) == 0) { // the self-tuning scheduler's choices keep the same promises
        queue.selfTuning(random.nextBoolean(), 2L + random.nextInt(8), random.nextBoolean());
      }
      // open 10:30–16:00 and 20:00–04:00 New York time (the second spans midnight)
      this.windows =
          random.nextInt(4) == 0
              ? List.of(
                  MergeWindow.of(0, ALL_DAYS, "10:30", "16:00", "America/New_York"),
                  MergeWindow.of(1, ALL_DAYS, "20:00", "04:00", "America/New_York"))
              : List.of();
      if (!windows.isEmpty()) {
        queue.apply(new QueueCommand.UpdateQueue(QueueFixture.mergeWindows(windows)));
      }
      this.freezes = random.nextInt(4) == 0;
      this.flakeRate = new double[] {0, 0, 0.03, 0.1}[random.nextInt(4)];
      this.urgent = random.nextInt(3) == 0;
      if (random.nextInt(4) == 0) {
        queue.apply(
            new QueueCommand.UpdateQueue(
                QueueSettingsPatch.directMergeMode(DirectMergeMode.ALWAYS)));
      }
      commits.put(target, List.of());
    }

    private static final List<String> ALL_DAYS =
        List.of("mon", "tue", "wed", "thu", "fri", "sat", "sun");

    /** Runs the world to its end; answers how many green halves landed as tested. */
    long run() {
      int prs = 4 + random.nextInt(14);
      for (long pr = 1; pr <= prs; pr++) {
        if (random.nextInt(5) == 0) {
          broken.add(pr);
        }
        if (conflicts && pr > 1 && random.nextInt(8) == 0) {
          conflicting.add(Set.of(pr - 1, pr));
        }
      }
      if (random.nextInt(3) == 0) {
        // dependencies only go to PRs of a lower rank in a random order: no cycles among them
        // (one added mid-run can close one: see the submit below), and a PR is often submitted
        // before what it depends on
        List<Long> rank = new ArrayList<>();
        for (long pr = 1; pr <= prs; pr++) {
          rank.add(pr);
        }
        java.util.Collections.shuffle(rank, random);
        for (int i = 1; i < rank.size(); i++) {
          if (random.nextInt(3) == 0) {
            dependsOn.put(rank.get(i), List.of(rank.get(random.nextInt(i))));
          }
        }
      }
      long next = 1;
      for (int step = 0; step < 6000; step++) {
        if (next <= prs && random.nextInt(3) == 0) {
          Priority priority = urgent && random.nextInt(4) == 0 ? Priority.URGENT : null;
          QueueCommand submit =
              new QueueCommand.SubmitPullRequest(next, priority, null, null, dependsOn.get(next));
          Decision planned = queue.decide(submit);
          if (planned.isAccepted()) {
            queue.applyDecision(planned);
          } else {
            // a dependency added mid-run closed a cycle with this planned one (refused, as a
            // person would be): the PR is submitted without it
            assertThat(planned.rejection().type()).as("seed %d", seed).isEqualTo(INVALID_STATE);
            assertThat(planned.rejection().message())
                .as("seed %d", seed)
                .contains("would make a cycle");
            dependsOn.remove(next);
            queue.apply(new QueueCommand.SubmitPullRequest(next, priority, null, null, null));
          }
          if (parallel) {
            queue.apply(new QueueCommand.SetImpactedTargets(next, "", randomTargets()));
          }
          submitted.add(next);
          observe(next++);
        }
        disturb();
        freezeOrThaw();
        effects();
        ci();
        queue.after(Duration.ofMinutes(1)).apply(new QueueCommand.Tick());
        invariants();
        if (next > prs && queue.state().entries().isEmpty()) {
          break;
        }
      }
      assertThat(queue.state().entries()).as("every PR concludes, seed %d", seed).isEmpty();
      assertThat(EventApplier.applyAll(null, queue.log()))
          .as("replay, seed %d", seed)
          .isEqualTo(queue.state());
      Set<Long> failedByFlake = new HashSet<>();
      for (QueueEvent event : queue.log()) {
        if (event instanceof QueueEvent.TestRunFailed failed
            && Reasons.TEST_RUN_REQUIRED_STATUS_FAILED.equals(failed.reason())) {
          assertThat(redRuns.get(failed.runId()))
              .as("run %s failed by a red of its own with one PR, seed %d", failed.runId(), seed)
              .isEqualTo(1);
          failedByFlake.addAll(flakedRuns.getOrDefault(failed.runId(), List.of()));
        }
      }
      for (long pr : submitted) {
        if (queue.stateOf(pr) == PrState.CANCELLED) {
          continue; // a person's cancel, or a dependency that failed
        }
        if (broken.contains(pr)) {
          assertThat(queue.stateOf(pr))
              .as("broken %d, seed %d", pr, seed)
              .isNotEqualTo(PrState.MERGED);
        } else if (!conflicts && !failedByFlake.contains(pr)) {
          assertThat(queue.stateOf(pr))
              .as("good %d, seed %d", pr, seed)
              .isNotEqualTo(PrState.FAILED);
        }
      }
      return queue.log().stream().filter(QueueEvent.BisectionHalfPassed.class::isInstance).count();
    }

    /** Now and then a release freezes the queue, for a while or until unfrozen. */
    private void freezeOrThaw() {
      if (!freezes || random.nextInt(60) != 0) {
        return;
      }
      if (queue.state().freeze() == null) {
        Instant until = random.nextBoolean() ? null : queue.now().plus(Duration.ofMinutes(90));
        queue.apply(new QueueCommand.FreezeQueue("release", until));
      } else {
        queue.apply(new QueueCommand.UnfreezeQueue());
      }
    }

    /** One of three target groups, now and then two of them, or (rarely) every target. */
    private ImpactedTargets randomTargets() {
      int draw = random.nextInt(10);
      if (draw == 0) {
        return ImpactedTargets.everything();
      }
      List<String> groups = new ArrayList<>(List.of("g" + random.nextInt(3)));
      if (draw == 1) {
        groups.add("g" + random.nextInt(3));
      }
      return ImpactedTargets.of(groups, "digest-" + groups);
    }

    /** The source host's view of a PR: it conflicts with the target once its rival landed. */
    private void observe(long pr) {
      boolean clean =
          commits.get(target).stream()
              .noneMatch(landed -> conflicting.contains(Set.of(landed, pr)));
      queue.apply(
          new QueueCommand.RecordPullRequestState(
              pr,
              true,
              "sha-" + pr,
              "Change " + pr,
              "dev",
              "main",
              null,
              clean ? Mergeability.MERGEABLE : Mergeability.NOT_MERGEABLE,
              null,
              List.of()));
    }

    /** Now and then a person cancels, restarts, or pushes to the target by hand. */
    private void disturb() {
      List<Entry> active = queue.state().entries();
      if (active.isEmpty() || random.nextInt(40) != 0) {
        return;
      }
      Entry e = active.get(random.nextInt(active.size()));
      switch (random.nextInt(4)) {
        case 0 -> queue.attempt(new QueueCommand.CancelPullRequest(e.prNumber()));
        case 1 -> queue.attempt(new QueueCommand.RestartTests(e.prNumber()));
        case 2 -> dependOnAnother(e, active);
        default -> {
          String moved = "t" + ++shas;
          commits.put(moved, commits.get(target));
          target = moved;
        }
      }
    }

    /**
     * {@code e} is submitted again, now depending on another PR in the queue (refused when that
     * closes a cycle): a dependency added while it may be under test.
     */
    private void dependOnAnother(Entry e, List<Entry> active) {
      Entry other = active.get(random.nextInt(active.size()));
      if (other.prNumber() == e.prNumber()) {
        return;
      }
      QueueCommand resubmit =
          new QueueCommand.SubmitPullRequest(
              e.prNumber(), null, null, null, List.of(other.prNumber()));
      boolean landing =
          Lanes.landable(queue.state()).filter(r -> r.entryIds().contains(e.id())).isPresent();
      if (queue.decide(resubmit).isAccepted()) {
        queue.apply(resubmit);
        if (!landing) { // a run being landed lands as tested, ahead of what it now names
          dependsOn.put(e.prNumber(), List.of(other.prNumber()));
        }
      }
    }

    private void effects() {
      for (Effect effect : Effects.of(queue.state())) {
        if (random.nextInt(3) == 0) {
          continue; // not yet: effects take their time
        }
        if (effect instanceof Effect.BuildTestBranch b) {
          build(b);
        } else if (effect instanceof Effect.CheckDirectMerge d) {
          checkDirect(d);
        } else if (effect instanceof Effect.LandRun l) {
          land(l);
        } else {
          queue.apply(new QueueCommand.RecordBranchDeleted(effect.runId()));
        }
      }
    }

    /**
     * A PR's head is branched from the initial commit: it contains the target only until something
     * lands (or someone pushes).
     */
    private void checkDirect(Effect.CheckDirectMerge d) {
      if (!commits.get(target).isEmpty() || !target.equals("t0")) {
        queue.apply(new QueueCommand.RecordDirectMergeRefused(d.runId()));
        return;
      }
      commits.put(d.pr().sha(), List.of(d.pr().number()));
      queue.apply(new QueueCommand.RecordTestBranch(d.runId(), target, d.pr().sha()));
    }

    private void build(Effect.BuildTestBranch b) {
      String base = b.baseSha() != null ? b.baseSha() : target;
      List<Long> content = new ArrayList<>(commits.get(base));
      for (TestedPr pr : b.prs()) {
        if (content.stream().anyMatch(c -> conflicting.contains(Set.of(c, pr.number())))) {
          queue.apply(new QueueCommand.RecordTestBranchConflict(b.runId(), pr.number()));
          return;
        }
        content.add(pr.number());
      }
      String head = "s" + ++shas;
      commits.put(head, content);
      queue.apply(new QueueCommand.RecordTestBranch(b.runId(), base, head));
    }

    private void land(Effect.LandRun l) {
      assertThat(MergeWindow.anyOpen(windows, queue.now()))
          .as("lands only inside a merge window, seed %d", seed)
          .isTrue();
      assertThat(queue.state().freeze()).as("lands only when not frozen, seed %d", seed).isNull();
      if (!target.equals(l.expectedTargetSha())) {
        queue.apply(new QueueCommand.RecordMergeRefused(l.runId(), target, null));
        return;
      }
      List<Long> before = commits.get(target);
      if (!parallel) {
        // only another lane's landing is trusted to be replayed onto: in single mode every run
        // (a green half too) lands exactly on what it was tested on
        assertThat(l.builtOnSha())
            .as("run %s lands on what it was tested on, seed %d", l.runId(), seed)
            .isEqualTo(l.expectedTargetSha());
      }
      if (!l.expectedTargetSha().equals(l.builtOnSha())) {
        // another lane landed since this run was built: its own PRs are replayed on the target
        List<Long> replayed = new ArrayList<>(before);
        l.prs().forEach(pr -> replayed.add(pr.number()));
        target = "s" + ++shas;
        commits.put(target, replayed);
        queue.apply(new QueueCommand.RecordMerge(l.runId(), target));
        queue.state().entries().forEach(e -> observe(e.prNumber()));
        return;
      }
      List<Long> after = commits.get(l.testedSha());
      assertThat(after.subList(0, Math.min(before.size(), after.size())))
          .as("a landing keeps what landed before, seed %d", seed)
          .isEqualTo(before);
      target = l.testedSha();
      queue.apply(new QueueCommand.RecordMerge(l.runId(), target));
      queue.state().entries().forEach(e -> observe(e.prNumber()));
    }

    /**
     * CI answers some runs each minute: red when the tested commit holds a broken PR, or now and
     * then by a flake.
     */
    private void ci() {
      for (TestRun run : queue.state().runs().live()) {
        String head = run.headSha();
        if (head == null || reported.contains(head) || random.nextInt(4) != 0) {
          continue;
        }
        reported.add(head);
        boolean broke = commits.get(head).stream().anyMatch(broken::contains);
        boolean red = broke || random.nextDouble() < flakeRate;
        if (red) {
          redRuns.put(run.id(), run.prs().size());
          if (!broke) {
            flakedRuns.put(run.id(), run.prs().stream().map(TestedPr::number).toList());
          }
        }
        queue.apply(
            new QueueCommand.ReportStatus(
                head, "ci/test", red ? CommitState.FAILURE : CommitState.SUCCESS, null, null));
      }
    }

    private void invariants() {
      List<TestRun> chain = queue.state().runs().chain();
      for (TestRun head : chain) {
        if (!Lanes.isHead(queue.state(), head)) {
          continue;
        }
        List<TestRun> lane = Lanes.from(chain, head);
        assertThat(lane.stream().filter(TestRun::isUndecided).count())
            .as("a lane's runs under test ≤ concurrency, seed %d", seed)
            .isLessThanOrEqualTo(concurrency);
        assertThat(lane.size())
            .as("a lane's runs ≤ 2 × concurrency, seed %d", seed)
            .isLessThanOrEqualTo(2 * (int) concurrency);
      }
      assertThat(queue.state().runs().bisecting().stream().filter(TestRun::isUndecided).count())
          .as("bisection runs under test ≤ bisectionConcurrency, seed %d", seed)
          .isLessThanOrEqualTo(bisectionConcurrency);
      List<Long> landed = commits.get(target);
      assertThat(landed).as("nothing lands twice, seed %d", seed).doesNotHaveDuplicates();
      assertThat(landed).as("no broken PR lands, seed %d", seed).noneMatch(broken::contains);
      for (int i = 0; i < landed.size(); i++) {
        for (long dependency : dependsOn.getOrDefault(landed.get(i), List.of())) {
          assertThat(landed.subList(0, i))
              .as("#%d lands after #%d, its dependency, seed %d", landed.get(i), dependency, seed)
              .contains(dependency);
        }
      }
    }
  }
}
