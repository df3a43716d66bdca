package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.QueueFreeze;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.QueueSettings;
import dev.trainyard.common.queue.QueueState;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The state of one queue: settings, state, the entries in it (in no particular order; {@link
 * #inQueueOrder()} sorts them), targets uploaded before submission, the entries that concluded most
 * recently (so their final form can still be projected and read), its test runs, and the mode it
 * switches to once its runs are done ({@code switchingTo}, null unless switching). {@code
 * requiredChecks}: what the source host declares required on the target (null on plain git); {@code
 * landingProblem}: why the host last refused to land a run, in its words, until a run lands; {@code
 * freeze}: set by {@code freezeQueue}, null when not frozen; {@code landingHold}: why nothing lands
 * now (frozen, outside every merge window), null when landing may happen — the planner keeps it in
 * step with the clock, so what lands is decided by state, not by when an effect is asked for;
 * {@code history}: the recent runs' durations and verdicts the queue's estimates use.
 */
public record QueueAggregate(
    QueueKey key,
    QueueState state,
    QueueSettings settings,
    Instant createdAt,
    long nextSequence,
    List<Entry> entries,
    List<PendingTargets> targetsBeforeSubmit,
    List<Entry> concluded,
    RunBook runs,
    QueueMode switchingTo,
    String sourceProblem,
    RequiredChecks requiredChecks,
    String landingProblem,
    QueueFreeze freeze,
    String landingHold,
    RunHistory history) {

  /** How many target uploads for not-yet-submitted PRs are remembered; the oldest go first. */
  public static final int MAX_TARGETS_BEFORE_SUBMIT = 1000;

  /** How many concluded entries stay in the aggregate (history lives in its own collection). */
  public static final int MAX_CONCLUDED = 50;

  public static final Comparator<Entry> QUEUE_ORDER =
      Comparator.comparingInt((Entry e) -> e.priority().value()).thenComparingLong(Entry::sequence);

  public QueueAggregate {
    entries = Entries.of(entries);
    targetsBeforeSubmit = List.copyOf(targetsBeforeSubmit);
    concluded = List.copyOf(concluded);
    runs = runs == null ? RunBook.EMPTY : runs;
    history = history == null ? RunHistory.EMPTY : history;
  }

  public static QueueAggregate created(QueueKey key, QueueSettings settings, Instant at) {
    return new QueueAggregate(
        key,
        QueueState.RUNNING,
        settings,
        at,
        1,
        List.of(),
        List.of(),
        List.of(),
        RunBook.EMPTY,
        null,
        null,
        null,
        null,
        null,
        null,
        RunHistory.EMPTY);
  }

  public Optional<Entry> activeEntry(long prNumber) {
    return ((Entries) entries).byNumber(prNumber);
  }

  public Optional<Entry> entry(String id) {
    return ((Entries) entries).byId(id);
  }

  public Optional<Entry> concludedEntry(String id) {
    return concluded.stream().filter(e -> e.id().equals(id)).findFirst();
  }

  public Optional<PendingTargets> targetsBeforeSubmit(long prNumber) {
    return targetsBeforeSubmit.stream().filter(t -> t.prNumber() == prNumber).findFirst();
  }

  /** The entry with this id, whether still queued or recently concluded. */
  public Optional<Entry> anyEntry(String id) {
    return entry(id).or(() -> concludedEntry(id));
  }

  public List<Entry> inQueueOrder() {
    return ((Entries) entries).inQueueOrder();
  }

  QueueAggregate with(QueueState newState, QueueSettings newSettings) {
    Copy c = new Copy(this);
    c.state = newState;
    c.settings = newSettings;
    return c.aggregate();
  }

  QueueAggregate withEntries(List<Entry> newEntries, long newNextSequence) {
    Copy c = new Copy(this);
    c.entries = newEntries;
    c.nextSequence = newNextSequence;
    return c.aggregate();
  }

  /**
   * This state holding {@code stored} as its entries: the store keeps entries in documents of their
   * own (ADR 0019) and puts them back on load.
   */
  public QueueAggregate withStoredEntries(List<Entry> stored) {
    Copy c = new Copy(this);
    c.entries = stored;
    return c.aggregate();
  }

  QueueAggregate withTargetsBeforeSubmit(List<PendingTargets> pending) {
    Copy c = new Copy(this);
    c.targetsBeforeSubmit = pending;
    return c.aggregate();
  }

  QueueAggregate withConcluded(List<Entry> newEntries, List<Entry> newConcluded) {
    Copy c = new Copy(this);
    c.entries = newEntries;
    c.concluded = newConcluded;
    return c.aggregate();
  }

  /** These runs; the CI time of each run that stopped testing is spent ({@link CiSpend}). */
  QueueAggregate withRuns(RunBook newRuns) {
    Copy c = new Copy(this);
    c.runs = newRuns;
    c.history = history.withSpend(CiSpend.afterRuns(history.spend(), runs, newRuns));
    return c.aggregate();
  }

  QueueAggregate withSwitchingTo(QueueMode mode) {
    Copy c = new Copy(this);
    c.switchingTo = mode;
    return c.aggregate();
  }

  QueueAggregate withSourceProblem(String problem) {
    Copy c = new Copy(this);
    c.sourceProblem = problem;
    return c.aggregate();
  }

  QueueAggregate withLandingProblem(String problem) {
    if (java.util.Objects.equals(problem, landingProblem)) {
      return this;
    }
    Copy c = new Copy(this);
    c.landingProblem = problem;
    return c.aggregate();
  }

  QueueAggregate withFreeze(QueueFreeze newFreeze) {
    Copy c = new Copy(this);
    c.freeze = newFreeze;
    return c.aggregate();
  }

  QueueAggregate withLandingHold(String hold) {
    Copy c = new Copy(this);
    c.landingHold = hold;
    return c.aggregate();
  }

  QueueAggregate withHistory(RunHistory newHistory) {
    Copy c = new Copy(this);
    c.history = newHistory;
    return c.aggregate();
  }

  QueueAggregate withRequiredChecks(RequiredChecks checks) {
    Copy c = new Copy(this);
    c.requiredChecks = checks;
    return c.aggregate();
  }

  /**
   * Why PRs cannot be tested on this host's word now: the queue follows the host's required checks
   * ({@code requiredStatuses} null) and they could not be read. Null when nothing stands in the
   * way.
   */
  public String checksProblem() {
    return settings.requiredStatuses() == null
            && requiredChecks != null
            && !requiredChecks.readable()
        ? requiredChecks.problem()
        : null;
  }

  /** A mutable copy, so each {@code with} names only what it changes. */
  private static final class Copy {
    private final QueueAggregate from;
    private QueueState state;
    private QueueSettings settings;
    private long nextSequence;
    private List<Entry> entries;
    private List<PendingTargets> targetsBeforeSubmit;
    private List<Entry> concluded;
    private RunBook runs;
    private QueueMode switchingTo;
    private String sourceProblem;
    private RequiredChecks requiredChecks;
    private String landingProblem;
    private QueueFreeze freeze;
    private String landingHold;
    private RunHistory history;

    private Copy(QueueAggregate from) {
      this.from = from;
      state = from.state;
      settings = from.settings;
      nextSequence = from.nextSequence;
      entries = from.entries;
      targetsBeforeSubmit = from.targetsBeforeSubmit;
      concluded = from.concluded;
      runs = from.runs;
      switchingTo = from.switchingTo;
      sourceProblem = from.sourceProblem;
      requiredChecks = from.requiredChecks;
      landingProblem = from.landingProblem;
      freeze = from.freeze;
      landingHold = from.landingHold;
      history = from.history;
    }

    private QueueAggregate aggregate() {
      QueueTransitions.TABLE.check(from.state, state, from.key.id());
      return new QueueAggregate(
          from.key,
          state,
          settings,
          from.createdAt,
          nextSequence,
          entries,
          targetsBeforeSubmit,
          concluded,
          runs,
          switchingTo,
          sourceProblem,
          requiredChecks,
          landingProblem,
          freeze,
          landingHold,
          history);
    }
  }
}
