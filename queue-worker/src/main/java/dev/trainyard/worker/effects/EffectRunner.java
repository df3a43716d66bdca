package dev.trainyard.worker.effects;

import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.command.QueueCommand.RecordBranchDeleted;
import dev.trainyard.common.command.QueueCommand.RecordMerge;
import dev.trainyard.common.command.QueueCommand.RecordMergeRefused;
import dev.trainyard.common.command.QueueCommand.RecordTestBranch;
import dev.trainyard.common.command.QueueCommand.RecordTestBranchConflict;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.telemetry.CommandLog;
import dev.trainyard.common.telemetry.LogFields;
import dev.trainyard.common.telemetry.Traces;
import dev.trainyard.worker.engine.Effect;
import dev.trainyard.worker.engine.Effects;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.TestedPr;
import dev.trainyard.worker.scm.CommitMessages;
import dev.trainyard.worker.scm.HostLanes;
import dev.trainyard.worker.scm.MergeResult;
import dev.trainyard.worker.scm.PullRequestHead;
import dev.trainyard.worker.scm.ScmProvider;
import dev.trainyard.worker.scm.ScmRefused;
import dev.trainyard.worker.scm.TestBranchResult;
import dev.trainyard.worker.signals.OwnedQueues;
import dev.trainyard.worker.store.QueueStore;
import dev.trainyard.worker.store.StoredQueue;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.tracing.Span;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Runs the effects a queue's state asks for on the threads of its repository's host ({@link
 * HostLanes}: a slow host holds only its own effects; from 3 threads up a busy queue never takes
 * all of its host's) and sends each result as a command. Called after every processed poll with the
 * queue states it stored (before they are published, ADR 0048), and every sweep interval for the
 * owned queues that still ask for effects (a worker that restarts or takes over a partition
 * finishes what its predecessor left).
 *
 * <p>Effects are fenced by ownership ({@link OwnedQueues}): one starts only for a queue whose
 * partition this worker holds, its result carries the epoch in which the worker took it (a later
 * owner refuses it), and the effects of a partition about to be given up are stopped before it goes
 * ({@link #release}); on shutdown they drain before the consumers stop ({@link #stop}).
 */
public class EffectRunner implements SmartLifecycle, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EffectRunner.class);
  static final Duration DRAIN = Duration.ofSeconds(20);

  /** The landing objective (the chart's SLO rules): a {@code LandRun} within 2 minutes. */
  static final Duration LANDING_OBJECTIVE = Duration.ofMinutes(2);

  /** How long the effects of partitions being given up may finish before they are interrupted. */
  static final Duration RELEASE = Duration.ofSeconds(10);

  /** Stops after the listener containers' phase would, i.e. before them. */
  static final int PHASE = Integer.MAX_VALUE - 50;

  /** The effects running now, by run key, with their queue. */
  private final Map<String, Running> running = new ConcurrentHashMap<>();

  private record Running(String queueId, Future<?> future) {}

  private volatile boolean started;
  private final ScmProvider scm;
  private final Results results;
  private final QueueStore store;
  private final OwnedQueues owned;
  private final InstantSource clock;
  private final InFlight inFlight;
  private final HostLanes lanes;
  private final Traces traces;
  private final MeterRegistry meters;

  /**
   * Where effect results go: the queue's command log, marked with the ownership epoch the effect
   * was started in.
   */
  public interface Results {
    void send(QueueKey key, QueueCommand result, long epoch);
  }

  public EffectRunner(
      ScmProvider scm,
      Results results,
      QueueStore store,
      OwnedQueues owned,
      InstantSource clock,
      Duration patience,
      ToIntFunction<String> threadsPerHost,
      Traces traces,
      MeterRegistry meters) {
    this.traces = traces;
    this.meters = meters;
    this.scm = scm;
    this.results = results;
    this.store = store;
    this.owned = owned;
    this.clock = clock;
    this.inFlight = new InFlight(patience);
    this.lanes = new HostLanes("effects", threadsPerHost, this::gauge);
  }

  /**
   * Starts what {@code state} asks for and this instance is not already doing. Runs on the listener
   * thread after a poll, so it only decides; every source-host call (even whether the host serves
   * the repository) happens on the pool. Each effect is a span continuing the trace in scope (the
   * command that asked for it).
   */
  public void reconcile(QueueAggregate state) {
    if (state == null) {
      return;
    }
    Optional<Long> epoch = owned.epochOf(state.key().id());
    if (epoch.isEmpty()) {
      return; // not this worker's queue (any more): its owner runs its effects
    }
    String traceparent = traces.current();
    String prefix = state.key().id() + "#";
    Set<String> wanted = new HashSet<>();
    for (Effect effect : Effects.of(state)) {
      String runKey = prefix + effect.runId();
      wanted.add(runKey);
      String name = effect.getClass().getSimpleName();
      if (inFlight.claim(runKey, name, clock.instant())) {
        start(
            state.key(),
            runKey,
            epoch.get(),
            () -> traced(state.key(), runKey, effect, traceparent, epoch.get()));
      }
    }
    inFlight.forgetFinished(prefix, wanted);
  }

  /**
   * Runs {@code work} on its host's lane, known as running until it ends ({@link #release}), and
   * only while this worker still holds the queue in {@code epoch} when its turn comes (a sweep may
   * have read the epoch just before the partition was given up). One that does not run — given up,
   * cancelled while queued, dropped or refused by lanes shutting down — is left to be asked for
   * again, never counted as running.
   */
  private void start(QueueKey key, String runKey, long epoch, Runnable work) {
    AtomicBoolean ran = new AtomicBoolean();
    FutureTask<Void> task =
        new FutureTask<>(
            () -> {
              if (owned.epochOf(key.id()).equals(Optional.of(epoch))) {
                ran.set(true);
                work.run();
              }
            },
            null);
    Running entry = new Running(key.id(), task);
    running.put(runKey, entry);
    Runnable settle =
        () -> {
          running.remove(runKey, entry);
          if (!ran.get()) {
            inFlight.noResult(runKey, clock.instant(), false);
          }
        };
    try {
      lanes.execute(
          key.repo().host(),
          key.id(),
          () -> {
            try {
              task.run();
            } finally {
              settle.run();
            }
          },
          settle);
    } catch (RejectedExecutionException stopping) {
      settle.run();
    }
  }

  /** The effects waiting for a thread of a new lane's host: {@code trainyard.effects.waiting}. */
  private void gauge(String lane) {
    Gauge.builder("trainyard.effects.waiting", this, runner -> runner.lanes.waiting(lane))
        .tag("host", lane)
        .register(meters);
  }

  /**
   * Stops the effects of the queues of {@code partitions} before this worker gives them up: each
   * may finish within {@link #RELEASE} (its result, of this worker's epoch, is refused by the next
   * owner all the same), then it is interrupted. Called on the consumer thread, in the rebalance.
   */
  public void release(Collection<TopicPartition> partitions) {
    Set<Integer> given =
        partitions.stream().map(TopicPartition::partition).collect(Collectors.toSet());
    List<Future<?>> theirs =
        running.values().stream()
            .filter(r -> given.contains(owned.partitionOf(r.queueId())))
            .map(Running::future)
            .toList();
    long deadline = System.nanoTime() + RELEASE.toNanos();
    for (Future<?> f : theirs) {
      try {
        f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException | ExecutionException | CancellationException e) {
        f.cancel(true);
      } catch (InterruptedException e) {
        f.cancel(true);
        Thread.currentThread().interrupt();
      }
    }
    if (!theirs.isEmpty()) {
      log.info("{} effects of partitions given up were stopped first", theirs.size());
    }
  }

  /** Picks up the effects of owned queues (after a restart, a rebalance, or a lost result). */
  @Scheduled(fixedDelayString = "${trainyard.worker.effect-sweep-interval:10s}")
  public void sweep() {
    Predicate<String> mine = owned.now();
    try {
      for (String id : store.withEffects()) {
        if (mine.test(id)) {
          store.load(id).map(StoredQueue::aggregate).ifPresent(this::reconcile);
        }
      }
    } catch (RuntimeException e) {
      log.warn("could not look for pending effects; the next sweep retries: {}", e.toString());
    }
  }

  @Override
  public void start() {
    started = true;
  }

  /**
   * On shutdown, before the listener containers stop and give their partitions up ({@link #PHASE}):
   * the effects drain while this worker still owns their queues ({@link #close}).
   */
  @Override
  public void stop() {
    started = false;
    close();
  }

  @Override
  public boolean isRunning() {
    return started;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }

  /**
   * On shutdown (SIGTERM): takes no new effect and gives the running ones {@link #DRAIN} to finish
   * and report; whatever is still running after that is interrupted — it is handed back, not lost:
   * effects are derived from the stored state, so the partition's next owner starts it again.
   */
  @Override
  public void close() {
    lanes.shutdown();
    try {
      if (!lanes.awaitTermination(DRAIN)) {
        log.info(
            "effects still running after {}; the next owner of their queues redoes them", DRAIN);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    lanes.close();
  }

  /**
   * Runs the effect in a span of its own, timed as {@code trainyard.effects} by kind and outcome.
   */
  private void traced(QueueKey key, String runKey, Effect effect, String traceparent, long epoch) {
    String kind = effect.getClass().getSimpleName();
    Span span = traces.start("effect " + kind, traceparent, Span.Kind.CLIENT, null);
    long start = System.nanoTime();
    boolean succeeded = false;
    try (var scope = traces.inScope(span);
        var fields = LogFields.of(key, null)) {
      succeeded = run(key, runKey, effect, epoch);
    } finally {
      String outcome = succeeded ? "succeeded" : "failed";
      long nanos = System.nanoTime() - start;
      span.tag("outcome", outcome);
      if (!succeeded) {
        span.error(new IllegalStateException(kind + " did not succeed"));
      }
      try (var scope = traces.inScope(span);
          var fields = LogFields.of(key, null)) {
        CommandLog.EFFECTS.info("{} of {}: {} in {} ms", kind, runKey, outcome, nanos / 1_000_000);
      }
      span.end();
      Timer.builder("trainyard.effects")
          .tags("kind", kind, "outcome", outcome)
          .publishPercentileHistogram()
          // a landing GitHub answers "base branch modified" is retried for minutes: buckets to an
          // hour, and one at the landing objective's 2 minutes
          .serviceLevelObjectives(LANDING_OBJECTIVE)
          .maximumExpectedValue(Duration.ofHours(1))
          .register(meters)
          .record(nanos, TimeUnit.NANOSECONDS);
    }
  }

  /**
   * @return whether the host did what the effect asked (its result is on its way)
   */
  private boolean run(QueueKey key, String runKey, Effect effect, long epoch) {
    boolean answered = true; // a result of this effect's own run is on its way
    boolean refused = false; // the host refused it as it will again until a person acts
    try {
      if (scm.serves(key.orgRepo())) { // else no repository here (yet): asked for again later
        QueueCommand result = execute(key, effect);
        results.send(key, result, epoch);
        answered =
            !(result instanceof QueueCommand.RefreshFromScm)
                && (!(result instanceof RecordMerge m) || m.testRunId().equals(effect.runId()));
      }
    } catch (ScmRefused e) {
      answered = false;
      refused = true;
      log.warn(
          "{} for {} was refused by the host; it is tried again in {}: {}",
          effect,
          key.id(),
          InFlight.MAX_BACKOFF,
          e.getMessage());
    } catch (RuntimeException e) {
      answered = false;
      log.warn("{} for {} failed; it is retried: {}", effect, key.id(), e.toString());
    } finally {
      if (answered) {
        inFlight.finished(runKey, clock.instant());
      } else {
        inFlight.noResult(runKey, clock.instant(), refused);
      }
    }
    return answered;
  }

  private QueueCommand execute(QueueKey key, Effect effect) {
    if (effect instanceof Effect.BuildTestBranch b) {
      TestBranchResult built =
          scm.buildTestBranch(
              key.orgRepo(),
              key.branch(),
              b.branch(),
              b.baseSha(),
              heads(b.prs()),
              b.at(),
              new CommitMessages(b.message(), b.runId()));
      if (built instanceof TestBranchResult.Built ok) {
        Long testPr =
            b.testPullRequest()
                ? scm.openTestPullRequest(key.orgRepo(), key.branch(), b.branch(), heads(b.prs()))
                    .orElse(null)
                : null;
        return new RecordTestBranch(b.runId(), ok.baseSha(), ok.sha(), testPr, ok.containedHeads());
      } else if (built instanceof TestBranchResult.Conflict c) {
        return new RecordTestBranchConflict(b.runId(), c.prNumber());
      }
      throw new IllegalStateException(((TestBranchResult.NoBase) built).reason());
    } else if (effect instanceof Effect.CheckDirectMerge d) {
      return scm.containedTarget(key.orgRepo(), key.branch(), d.pr().sha())
          .<QueueCommand>map(target -> new RecordTestBranch(d.runId(), target, d.pr().sha()))
          .orElseGet(() -> new QueueCommand.RecordDirectMergeRefused(d.runId()));
    } else if (effect instanceof Effect.LandRun l) {
      MergeResult merged =
          scm.merge(
              key.orgRepo(),
              key.branch(),
              l.expectedTargetSha(),
              l.builtOnSha(),
              l.testedSha(),
              l.method(),
              heads(l.prs(), l.stackedBases()),
              new CommitMessages(l.message(), l.runId()));
      if (merged instanceof MergeResult.Merged m) {
        return new RecordMerge(l.runId(), m.sha());
      } else if (merged instanceof MergeResult.PartlyMerged p) {
        return new QueueCommand.RecordPartialMerge(
            l.runId(), p.targetSha(), p.merged(), p.stoppedAt(), p.why());
      } else if (merged instanceof MergeResult.TargetMoved moved) {
        return lostLanding(key, l)
            .orElse(new RecordMergeRefused(l.runId(), moved.targetSha(), null));
      } else if (merged instanceof MergeResult.Refused refused) {
        return new RecordMergeRefused(l.runId(), null, null, refused.message());
      } else if (merged instanceof MergeResult.TreeDiffers differs) {
        return new RecordMergeRefused(
            l.runId(),
            null,
            differs.prNumber(),
            "#" + differs.prNumber() + " would land a tree CI did not test: " + differs.why(),
            true);
      } else if (merged instanceof MergeResult.Held held) {
        return new QueueCommand.RecordLandingHeld(l.runId(), held.prNumber(), held.why());
      } else if (merged instanceof MergeResult.HeadModified head) {
        // the PR was pushed to after it was tested: reading it takes it out of the queue, and
        // this landing is asked for again (for the runs left) once that is recorded
        return new QueueCommand.RefreshFromScm();
      }
      return new RecordMergeRefused(l.runId(), null, ((MergeResult.Conflict) merged).prNumber());
    }
    Effect.DeleteTestBranch d = (Effect.DeleteTestBranch) effect;
    if (d.testPrNumber() != null) {
      scm.closeTestPullRequest(key.orgRepo(), d.testPrNumber());
    }
    scm.deleteBranch(key.orgRepo(), d.branch());
    return new RecordBranchDeleted(d.runId());
  }

  /**
   * The landing of another passed lane head that moved the target, if one did: a crash between its
   * ref move and its record leaves it so. Recorded first, it keeps the move from counting as
   * someone else's push, which would re-test and land that head's PRs a second time.
   */
  private Optional<QueueCommand> lostLanding(QueueKey key, Effect.LandRun l) {
    for (Effect.PassedHead other : l.otherHeads()) {
      Optional<String> landed =
          scm.landing(
              key.orgRepo(),
              key.branch(),
              other.expectedTargetSha(),
              other.testedSha(),
              heads(other.prs()));
      if (landed.isPresent()) {
        log.info("{}: run {} had landed at {} unrecorded", key.id(), other.runId(), landed.get());
        return Optional.of(new RecordMerge(other.runId(), landed.get()));
      }
    }
    return Optional.empty();
  }

  private static List<PullRequestHead> heads(List<TestedPr> prs) {
    return heads(prs, Map.of());
  }

  /** The PRs as the host adapter takes them, each with its base where that is not the target. */
  private static List<PullRequestHead> heads(List<TestedPr> prs, Map<Long, String> bases) {
    return prs.stream()
        .map(p -> new PullRequestHead(p.number(), p.sha(), p.title(), bases.get(p.number())))
        .toList();
  }
}
