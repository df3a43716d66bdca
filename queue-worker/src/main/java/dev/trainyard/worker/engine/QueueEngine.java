package dev.trainyard.worker.engine;

import dev.trainyard.common.command.HostDependency;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.command.QueueCommand.CancelPullRequest;
import dev.trainyard.common.command.QueueCommand.CreateQueue;
import dev.trainyard.common.command.QueueCommand.DeleteQueue;
import dev.trainyard.common.command.QueueCommand.RecordPullRequestState;
import dev.trainyard.common.command.QueueCommand.RestartTests;
import dev.trainyard.common.command.QueueCommand.SetImpactedTargets;
import dev.trainyard.common.command.QueueCommand.SubmitPullRequest;
import dev.trainyard.common.command.QueueCommand.Tick;
import dev.trainyard.common.command.QueueCommand.UpdateQueue;
import dev.trainyard.common.queue.CancellationReason;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.Priority;
import dev.trainyard.common.queue.QueueFreeze;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.QueueSettings;
import dev.trainyard.common.queue.QueueSettingsPatch;
import dev.trainyard.common.queue.QueueState;
import dev.trainyard.worker.engine.QueueEvent.ImpactedTargetsRecorded;
import dev.trainyard.worker.engine.QueueEvent.ModeSwitchRequested;
import dev.trainyard.worker.engine.QueueEvent.ModeSwitched;
import dev.trainyard.worker.engine.QueueEvent.PullRequestCancelled;
import dev.trainyard.worker.engine.QueueEvent.PullRequestObserved;
import dev.trainyard.worker.engine.QueueEvent.PullRequestResubmitted;
import dev.trainyard.worker.engine.QueueEvent.PullRequestSubmitted;
import dev.trainyard.worker.engine.QueueEvent.QueueCreated;
import dev.trainyard.worker.engine.QueueEvent.QueueDeleted;
import dev.trainyard.worker.engine.QueueEvent.QueueFrozen;
import dev.trainyard.worker.engine.QueueEvent.QueueUnfrozen;
import dev.trainyard.worker.engine.QueueEvent.QueueUpdated;
import dev.trainyard.worker.engine.QueueEvent.TestRunCancelled;
import dev.trainyard.worker.engine.QueueEvent.TestsRestarted;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Decides what a command does to a queue. {@code decide} reads state and returns events or a
 * rejection; it never mutates. After every accepted command the planning rules ({@link
 * PlanningRules}) add the events the queue's rules call for.
 */
public final class QueueEngine {
  /**
   * Each step changes the state towards a fixed point; this bound only catches a broken rule
   * ({@link Decision#unsettled()}).
   */
  private static final int MAX_PLANNING_STEPS = 10_000;

  /** {@code TRAINYARD_MAX_QUEUE_PRS}'s default (API.md §6). */
  public static final int DEFAULT_MAX_QUEUE_PRS = 10_000;

  /**
   * How long a PR of a parallel queue that spans lanes waits for them before they drain for it
   * (SCHEDULING.md "Parallel mode").
   */
  public static final Duration SPAN_BARRIER = Duration.ofMinutes(30);

  /** {@code TRAINYARD_STATUS_SETTLE}'s default (API.md §3 {@code requiredStatuses}). */
  public static final Duration DEFAULT_STATUS_SETTLE = Duration.ofSeconds(30);

  private final Planner planner;
  private final List<PlanningRule> rules;
  private final int maxQueuePrs;

  /** An engine whose plain-git rule does not wait for late contexts (a settle time of zero). */
  public QueueEngine() {
    this(DEFAULT_MAX_QUEUE_PRS, Duration.ZERO);
  }

  /**
   * @param maxQueuePrs pull requests one queue may hold; a submit beyond them is refused
   * @param statusSettle how long a run on plain git whose reported contexts all succeeded waits for
   *     a new one before it is green ({@link CheckRule.Reported})
   */
  public QueueEngine(int maxQueuePrs, Duration statusSettle) {
    this(maxQueuePrs, statusSettle, SPAN_BARRIER);
  }

  /**
   * @param spanBarrier how long a parallel queue's PR spanning two lanes waits before no PR behind
   *     it joins those lanes ({@link #SPAN_BARRIER}; null: never — the scheduler benchmark measures
   *     what it is worth)
   */
  public QueueEngine(int maxQueuePrs, Duration statusSettle, Duration spanBarrier) {
    if (maxQueuePrs < 1) {
      throw new IllegalArgumentException("TRAINYARD_MAX_QUEUE_PRS must be at least 1");
    }
    if (statusSettle.isNegative()) {
      throw new IllegalArgumentException("TRAINYARD_STATUS_SETTLE must not be negative");
    }
    this.maxQueuePrs = maxQueuePrs;
    this.planner = new Planner(statusSettle);
    this.rules = PlanningRules.ordered(statusSettle, spanBarrier);
  }

  /**
   * @param state the queue, or null when it does not exist
   * @param key the queue the command is addressed to
   */
  public Decision decide(
      QueueAggregate state, QueueKey key, QueueCommand command, CommandContext ctx) {
    Decision primary = decidePrimary(state, key, command, ctx);
    if (!primary.isAccepted()) {
      return primary;
    }
    QueueAggregate after = EventApplier.applyAll(state, primary.events());
    if (after == null) {
      return primary;
    }
    List<QueueEvent> events = new ArrayList<>(primary.events());
    QueueAggregate current = after;
    for (int step = 0; step < MAX_PLANNING_STEPS; step++) {
      List<QueueEvent> planned = List.of();
      for (PlanningRule rule : rules) {
        planned = rule.decide(current, ctx);
        if (!planned.isEmpty()) {
          break;
        }
      }
      if (planned.isEmpty()) {
        return Decision.accept(events);
      }
      events.addAll(planned);
      current = EventApplier.applyAll(current, planned);
    }
    // a rule that undoes another's events: a bug (the simulation looks for it), not a reason to
    // stop the queue: the command stands, and the next command plans again
    return Decision.unsettled(primary.events());
  }

  /** The next time after {@code now} the queue needs a {@link Tick}, if any. */
  public Optional<Instant> nextDeadline(QueueAggregate state, Instant now) {
    return state == null ? Optional.empty() : planner.nextDeadline(state, now);
  }

  private Decision decidePrimary(
      QueueAggregate state, QueueKey key, QueueCommand command, CommandContext ctx) {
    if (command instanceof CreateQueue create) {
      return state != null
          ? Decision.reject(Rejection.conflict("a queue for " + describe(key) + " already exists"))
          : Decision.accept(
              List.of(
                  new QueueCreated(
                      key,
                      create.mergeMethod() == null
                          ? QueueSettings.defaults(create.mode(), create.concurrency())
                          : QueueSettings.defaults(create.mode(), create.concurrency())
                              .apply(QueueSettingsPatch.mergeMethod(create.mergeMethod())),
                      ctx.now())));
    }
    if (state == null) {
      return command instanceof DeleteQueue || command instanceof Tick
          ? Decision.accept(List.of())
          : Decision.reject(Rejection.notFound("no queue exists for " + describe(key)));
    }
    if (command instanceof UpdateQueue c) {
      return update(state, c);
    } else if (command instanceof DeleteQueue) {
      return delete(state);
    } else if (command instanceof SubmitPullRequest c) {
      return submit(state, c, ctx);
    } else if (command instanceof CancelPullRequest c) {
      return notLanding(state, c.prNumber())
          .orElseGet(
              () ->
                  withActiveEntry(
                      state,
                      c.prNumber(),
                      e ->
                          List.of(
                              new PullRequestCancelled(
                                  e.id(), CancellationReason.USER_REQUESTED, ctx.now()))));
    } else if (command instanceof RestartTests c) {
      return notLanding(state, c.prNumber())
          .orElseGet(() -> withActiveEntry(state, c.prNumber(), e -> restart(state, e, ctx)));
    } else if (command instanceof SetImpactedTargets c) {
      return impactedTargets(state, c);
    } else if (command instanceof Tick) {
      return Decision.accept(List.of());
    } else if (command instanceof RecordPullRequestState c) {
      return observed(state, c, ctx);
    } else if (command instanceof QueueCommand.RecordSourceProblem c) {
      return Objects.equals(c.problem(), state.sourceProblem())
          ? Decision.accept(List.of())
          : Decision.accept(List.of(new QueueEvent.SourceProblemChanged(c.problem())));
    } else if (command instanceof QueueCommand.RecordRequiredChecks c) {
      RequiredChecks checks = new RequiredChecks(c.checks(), c.problem());
      return Objects.equals(checks, state.requiredChecks())
          ? Decision.accept(List.of())
          : Decision.accept(List.of(new QueueEvent.RequiredChecksChanged(checks)));
    } else if (command instanceof QueueCommand.RefreshFromScm) {
      return Decision.accept(List.of()); // reading the source host is the shell's work
    } else if (command instanceof QueueCommand.FreezeQueue c) {
      return Decision.accept(
          List.of(new QueueFrozen(new QueueFreeze(c.reason(), c.until()), ctx.now())));
    } else if (command instanceof QueueCommand.UnfreezeQueue) {
      return Decision.accept(
          state.freeze() == null ? List.of() : List.of(new QueueUnfrozen(false, ctx.now())));
    }
    return RunResults.beyondLimits(state, command)
        .or(() -> RunResults.incomplete(state, command))
        .map(Decision::reject)
        .orElseGet(() -> Decision.accept(RunResults.decide(state, command, ctx)));
  }

  /** A PR in a run gets a new one (the runs behind are rebuilt); one waiting is re-planned. */
  private static List<QueueEvent> restart(QueueAggregate state, Entry e, CommandContext ctx) {
    return state
        .runs()
        .liveContaining(e.id())
        .<List<QueueEvent>>map(
            run ->
                List.of(
                    new TestRunCancelled(
                        run.id(), Reasons.TESTS_RESTARTED_BY_API_REQUEST, ctx.now())))
        .orElseGet(() -> List.of(new TestsRestarted(e.id(), ctx.now())));
  }

  /**
   * A mode change while runs are in flight waits for them in {@code switching_modes}; every other
   * setting applies at once.
   */
  private Decision update(QueueAggregate state, UpdateQueue command) {
    String expected = command.ifSettingsVersion();
    if (expected != null && !expected.equals(state.settings().version())) {
      return Decision.reject(
          Rejection.conflict(
              "the queue's settings changed since they were read (ifSettingsVersion "
                  + expected
                  + ", now "
                  + state.settings().version()
                  + "); nothing was changed"));
    }
    QueueSettingsPatch patch = command.patch();
    QueueState next = patch.state() != null ? patch.state() : state.state();
    QueueMode mode = patch.mode();
    boolean switching = mode != null && mode != state.settings().mode();
    if (!switching || state.runs().live().isEmpty()) {
      List<QueueEvent> events = new ArrayList<>();
      events.add(new QueueUpdated(state.settings().apply(patch), next));
      if (state.switchingTo() != null) {
        events.add(new ModeSwitched(mode != null ? mode : state.settings().mode()));
      }
      return Decision.accept(events);
    }
    QueueSettings settings = state.settings().apply(patch.withoutMode());
    return Decision.accept(
        List.of(
            new QueueUpdated(
                settings, patch.state() != null ? patch.state() : QueueState.SWITCHING_MODES),
            new ModeSwitchRequested(mode)));
  }

  private Decision delete(QueueAggregate state) {
    if (!state.entries().isEmpty()) {
      return Decision.reject(
          Rejection.invalidState(
              "the queue still holds "
                  + state.entries().size()
                  + " pull request(s); cancel or merge them before deleting it"));
    }
    return Decision.accept(List.of(new QueueDeleted()));
  }

  private Decision submit(QueueAggregate state, SubmitPullRequest command, CommandContext ctx) {
    if (state.state() == QueueState.DRAINING) {
      return Decision.reject(
          Rejection.invalidState("the queue is draining and takes no new pull requests"));
    }
    Optional<Rejection> badDependencies = Dependencies.check(state, command);
    if (badDependencies.isPresent()) {
      return Decision.reject(badDependencies.get());
    }
    Optional<Entry> existing = state.activeEntry(command.prNumber());
    if (existing.isPresent()) {
      Entry e = existing.get();
      boolean changes =
          command.priority() != null
              || command.noBatch() != null
              || (command.dependsOn() != null && !command.dependsOn().equals(e.dependsOn()))
              || (command.stack() && !e.stack())
              || (command.predictedRisk() != null
                  && !command.predictedRisk().equals(e.predictedRisk()));
      List<QueueEvent> events = new ArrayList<>();
      if (changes) {
        events.add(
            new PullRequestResubmitted(
                e.id(),
                command.priority() != null ? command.priority() : e.priority(),
                command.priority() == null && e.priorityDefaulted(),
                command.noBatch() != null ? command.noBatch() : e.noBatch(),
                command.dependsOn() != null ? command.dependsOn() : e.dependsOn(),
                command.stack(),
                command.predictedRisk() != null ? command.predictedRisk() : e.predictedRisk()));
      }
      if (command.stack()) {
        stackParent(state, e, true, e.pr(), ctx).ifPresent(events::add);
      }
      return Decision.accept(events);
    }
    if (state.entries().size() >= maxQueuePrs) {
      return Decision.reject(
          Rejection.limitReached(
              "the queue holds "
                  + state.entries().size()
                  + " pull requests, the most it may hold (TRAINYARD_MAX_QUEUE_PRS = "
                  + maxQueuePrs
                  + "); submit again once some have landed or been cancelled"));
    }
    Entry entry =
        new Entry(
            ctx.derivedId("entry").toString(),
            command.prNumber(),
            state.nextSequence(),
            command.priority() != null ? command.priority() : Priority.DEFAULT,
            command.priority() == null,
            Boolean.TRUE.equals(command.noBatch()),
            PrState.NOT_READY,
            ctx.now(),
            ctx.now(),
            PullRequestInfo.unknown(state.key().branch()),
            Mergeability.UNSPECIFIED,
            state.targetsBeforeSubmit(command.prNumber()).map(PendingTargets::targets).orElse(null),
            null,
            null,
            false,
            command.headSha(),
            command.dependsOn(),
            List.of(),
            false,
            false,
            command.stack(),
            command.predictedRisk());
    return Decision.accept(List.of(new PullRequestSubmitted(entry)));
  }

  /**
   * The PR {@code entry} is stacked on, submitted for it when {@code entry} was (or is being)
   * submitted with its stack ({@code stack}), the host names one ({@code info.stackedOn}), and it
   * is neither in the queue nor landed: with the same priority and batching, itself with its stack,
   * so a stack is submitted down to the PR based on the target as the host names each. Empty
   * otherwise.
   */
  private Optional<PullRequestSubmitted> stackParent(
      QueueAggregate state, Entry entry, boolean stack, PullRequestInfo info, CommandContext ctx) {
    Long parent = info.stackedOn();
    if (!stack
        || parent == null
        || state.activeEntry(parent).isPresent()
        || entry.landedDependencies().contains(parent)
        || Dependencies.landed(state, parent)
        || info.hostDependency(parent).map(HostDependency::merged).orElse(false)
        || state.entries().size() >= maxQueuePrs) {
      return Optional.empty();
    }
    return Optional.of(
        new PullRequestSubmitted(
            new Entry(
                ctx.derivedId("stack-" + parent).toString(),
                parent,
                state.nextSequence(),
                entry.priority(),
                entry.priorityDefaulted(),
                entry.noBatch(),
                PrState.NOT_READY,
                ctx.now(),
                ctx.now(),
                PullRequestInfo.unknown(state.key().branch()),
                Mergeability.UNSPECIFIED,
                state.targetsBeforeSubmit(parent).map(PendingTargets::targets).orElse(null),
                null,
                null,
                false,
                null,
                null,
                List.of(),
                false,
                false,
                true,
                null)));
  }

  /**
   * The source host's view of a PR: closed → cancelled; pushed to in any state before it lands, or
   * pushed to before the worker first read it (its head is not the one the submitter saw) →
   * cancelled ({@code PR_PUSHED_TO}: what was submitted is what lands); re-targeted while its tests
   * run → cancelled, unless a stacked PR is retargeted onto the queue's branch (its stack lands
   * below it); otherwise its facts are recorded and the planner re-evaluates readiness, and the PR
   * a stack's PR is stacked on is submitted for it ({@link #stackParent}).
   */
  private Decision observed(QueueAggregate state, RecordPullRequestState c, CommandContext ctx) {
    Optional<Entry> found = state.activeEntry(c.prNumber());
    if (found.isEmpty() || landing(state, found.get())) {
      return Decision.accept(List.of()); // a PR being landed lands as tested
    }
    Entry entry = found.get();
    if (!c.open()) {
      return Decision.accept(
          List.of(new PullRequestCancelled(entry.id(), CancellationReason.PR_CLOSED, ctx.now())));
    }
    boolean inTest = entry.testRunId() != null;
    String head = entry.knownHead();
    if (head != null && !head.equals(c.sha())) {
      // what was submitted is what lands: a push, waiting or testing, takes the PR out
      // (a reviewer's approval or /trainyard merge was for the head they saw)
      return Decision.accept(
          List.of(
              new PullRequestCancelled(entry.id(), CancellationReason.PR_PUSHED_TO, ctx.now())));
    }
    boolean retargeted =
        entry.pr().stackedOn() != null && state.key().branch().equals(c.baseBranch());
    if (inTest && !entry.pr().baseBranch().equals(c.baseBranch()) && !retargeted) {
      return Decision.accept(
          List.of(
              new PullRequestCancelled(
                  entry.id(), CancellationReason.PR_BASE_BRANCH_CHANGED, ctx.now())));
    }
    PullRequestInfo info =
        new PullRequestInfo(
            c.title(),
            c.sha(),
            c.baseBranch(),
            c.author(),
            c.headBranch(),
            c.hold(),
            c.dependsOn(),
            c.hostDependencies(),
            c.stackedOn());
    Mergeability mergeability = mergeability(entry, c);
    List<QueueEvent> events = new ArrayList<>();
    if (!info.equals(entry.pr()) || mergeability != entry.mergeability()) {
      events.add(new PullRequestObserved(entry.id(), info, mergeability));
    }
    stackParent(state, entry, entry.stack(), info, ctx).ifPresent(events::add);
    return Decision.accept(events);
  }

  /**
   * What the observation says of the PR's mergeability. GitHub answers {@code mergeable: null}
   * while it computes it again (after every push to the target, so after every landing): for the
   * same head the last known answer stands, or every waiting PR would leave the queue and come back
   * after each landing.
   */
  private static Mergeability mergeability(Entry entry, RecordPullRequestState c) {
    boolean known =
        entry.mergeability() == Mergeability.MERGEABLE
            || entry.mergeability() == Mergeability.NOT_MERGEABLE;
    return c.mergeability() == Mergeability.IN_PROGRESS && known && c.sha().equals(entry.pr().sha())
        ? entry.mergeability()
        : c.mergeability();
  }

  private Decision impactedTargets(QueueAggregate state, SetImpactedTargets command) {
    Optional<Entry> entry = state.activeEntry(command.prNumber());
    if (entry.isEmpty()) {
      return Decision.accept(
          List.of(
              new ImpactedTargetsRecorded(
                  command.prNumber(), null, command.sha(), command.targets())));
    }
    String headSha = entry.get().pr().sha();
    if (!headSha.isEmpty() && !headSha.equals(command.sha())) {
      return Decision.accept(List.of()); // computed for an older head: ignored (API.md §2)
    }
    return Decision.accept(
        List.of(
            new ImpactedTargetsRecorded(
                command.prNumber(), entry.get().id(), command.sha(), command.targets())));
  }

  /**
   * The passed run at the head of the chain is being landed (unless the queue is paused): its PRs
   * can no longer be cancelled or restarted, or the target would hold changes the queue thinks it
   * dropped.
   */
  private static boolean landing(QueueAggregate state, Entry entry) {
    return Lanes.landable(state).filter(r -> r.contains(entry.id())).isPresent();
  }

  private static Optional<Decision> notLanding(QueueAggregate state, long prNumber) {
    return state
        .activeEntry(prNumber)
        .filter(e -> landing(state, e))
        .map(
            e ->
                Decision.reject(
                    Rejection.conflict(
                        "pull request " + prNumber + " passed its tests and is being merged")));
  }

  private static Decision withActiveEntry(
      QueueAggregate state,
      long prNumber,
      java.util.function.Function<Entry, List<QueueEvent>> action) {
    return state
        .activeEntry(prNumber)
        .map(e -> Decision.accept(action.apply(e)))
        .orElseGet(
            () ->
                Decision.reject(
                    Rejection.notFound("pull request " + prNumber + " is not in the queue")));
  }

  static String describe(QueueKey key) {
    return key.repo().host() + "/" + key.repo().slug() + " branch " + key.branch();
  }
}
