package dev.trainyard.worker.signals;

import dev.trainyard.common.command.HostDependency;
import dev.trainyard.common.command.QueueCommand.RecordPullRequestState;
import dev.trainyard.common.command.QueueCommand.RecordRequiredChecks;
import dev.trainyard.common.command.QueueCommand.RecordSourceProblem;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.worker.engine.Entry;
import dev.trainyard.worker.engine.PullRequestInfo;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.RequiredChecks;
import dev.trainyard.worker.scm.HostLanes;
import dev.trainyard.worker.scm.PullRequestUnreadable;
import dev.trainyard.worker.scm.ScmProvider;
import dev.trainyard.worker.scm.ScmPullRequest;
import dev.trainyard.worker.store.QueueCache;
import dev.trainyard.worker.store.QueueStore;
import dev.trainyard.worker.store.StoredQueue;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Every interval, fetches the repository of each of this instance's queues and reads its queued PRs
 * from the source host, reporting each one whose head, title, author, base or mergeability differs
 * from what the queue recorded (or that disappeared after it had been seen: closed). A repository
 * no adapter serves, or one that cannot be fetched, is recorded as the queue's source problem (the
 * reason its PRs are not ready); a queue whose problem is recorded is only re-checked, not re-read.
 * Each repository is read on its host's lane, never on the scheduler's or a listener's thread, so a
 * slow host or a busy repository holds back only itself; mergeability is computed once per (target
 * head, PR head). Where the host says when a repository's refs change, a round reads only what
 * changed since the last: no PR of a queue whose repository and version are as at its last read,
 * and of one that changed, only the PRs it holds differently. A queue is read from the worker's
 * cache when it holds it (the version the worker last wrote), and what the source hosts would look
 * up in the store for each repository is read ahead for all of them ({@link
 * ScmProvider#readAhead}), so a round's store reads do not grow with its queues and repositories (a
 * queue the cache does not hold is still loaded on its own); {@code trainyard.scm.poll.round} times
 * each round, and a round longer than 1 s is logged, at most once a minute, with where its time
 * went.
 */
public class ScmPoller implements ScmRefresher, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ScmPoller.class);
  private static final int REMEMBERED_MERGES = 10_000;

  /** A queue version no stored queue has: a read that sent something spares no next round. */
  private static final long NOT_AS_HELD = -1;

  private final Queues queues;
  private final OwnedQueues owned;
  private final Signals signals;
  private final ScmProvider scm;
  private final ExecutorService refreshes = Executors.newFixedThreadPool(2);
  private final Rounds rounds = new Rounds("scm-poller");
  private final HostLanes lanes;

  /** Per queue, what its last read saw (only where the host can say: {@link LastRead}). */
  private final Map<String, LastRead> lastRead = new ConcurrentHashMap<>();

  /** The repositories whose read a round started and has not ended. */
  private final Set<OrgRepo> reading = ConcurrentHashMap.newKeySet();

  /** Per queue, the refresh whose read has not started yet. */
  private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();

  /** The source problem last seen recorded per queue: such queues are not re-read every round. */
  private final Map<String, String> reported = new ConcurrentHashMap<>();

  private final Map<String, Mergeability> merges =
      Collections.synchronizedMap(
          new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Mergeability> eldest) {
              return size() > REMEMBERED_MERGES;
            }
          });

  private final Timer round;

  /** Rounds longer than 1 s, reported in the log once a minute at most. */
  private final SlowRounds slow = new SlowRounds(Duration.ofSeconds(1), Duration.ofMinutes(1));

  /** The meters' clock: the round's timer and its report read the same time. */
  private final Clock clock;

  private final Counter fromCache;
  private final Counter fromStore;
  private final Counter unchanged;

  /**
   * @param threadsPerHost how many repositories of one host are read at once
   */
  public ScmPoller(
      Queues queues,
      OwnedQueues owned,
      Signals signals,
      ScmProvider scm,
      ToIntFunction<String> threadsPerHost,
      MeterRegistry meters) {
    this.lanes = new HostLanes("scm-poll", threadsPerHost, lane -> {});
    this.queues = queues;
    this.owned = owned;
    this.signals = signals;
    this.scm = scm;
    this.clock = meters.config().clock();
    this.round =
        Timer.builder("trainyard.scm.poll.round")
            .description("How long a round of the source-host poller took (its owned queues)")
            // how many rounds overran the 1 s a round is meant to take, and the default 5 s
            // interval
            .serviceLevelObjectives(Duration.ofSeconds(1), Duration.ofSeconds(5))
            .register(meters);
    this.fromCache = read(meters, "cache");
    this.fromStore = read(meters, "store");
    this.unchanged =
        Counter.builder("trainyard.scm.poll.unchanged")
            .description(
                "Queues a poller round did not read again: their repository's refs and the queue"
                    + " were as at their last read")
            .register(meters);
  }

  private static Counter read(MeterRegistry meters, String from) {
    return Counter.builder("trainyard.scm.poll.queues")
        .description("Queues the source-host poller read, from the worker's cache or the store")
        .tag("from", from)
        .register(meters);
  }

  /**
   * Where the poller reads queues: the keys of the active ones from the store, each queue from the
   * worker's cache (the versions it wrote last, which its commands are decided from) and from the
   * store only when the cache does not hold it.
   */
  public record Queues(QueueStore store, QueueCache cache) {}

  /** A queue as the poller read it, and whether from the worker's cache. */
  private record Loaded(StoredQueue queue, boolean cached) {}

  private Optional<Loaded> lookUp(String id) {
    Optional<StoredQueue> cached = queues.cache().get(id);
    if (cached.isPresent()) {
      fromCache.increment();
      return cached.map(q -> new Loaded(q, true));
    }
    fromStore.increment();
    return queues.store().load(id).map(q -> new Loaded(q, false));
  }

  /** Every poll interval, a round started on the poller's own thread (see {@link Rounds}). */
  @Scheduled(fixedDelayString = "${trainyard.scm.poll-interval:5s}")
  public void scheduled() {
    rounds.trigger(this::poll);
  }

  /**
   * One round: each owned repository with active queues read again on its host's lane ({@link
   * HostLanes}), the organizations taking turns, unless it is still being read from an earlier
   * round (a host waiting out a rate limit holds its own repositories, not the others'). The round
   * is timed once every repository it started has been read.
   *
   * @return when every repository this round started has been read
   */
  public CompletableFuture<Void> poll() {
    long start = clock.monotonicTime();
    Predicate<String> mine = owned.now();
    List<QueueKey> active;
    try {
      active = queues.store().activeQueues();
    } catch (RuntimeException e) {
      log.warn("could not list the queues to poll; the next round retries: {}", e.toString());
      return CompletableFuture.completedFuture(null);
    }
    // each repository is checked and fetched once a round, not once for each of its queues
    Map<OrgRepo, List<QueueKey>> byRepository = new LinkedHashMap<>();
    for (QueueKey key : active) {
      if (mine.test(key.id())) {
        byRepository.computeIfAbsent(key.orgRepo(), repo -> new ArrayList<>()).add(key);
      }
    }
    Set<String> polled = new HashSet<>();
    byRepository.values().forEach(keys -> keys.forEach(k -> polled.add(k.id())));
    lastRead.keySet().retainAll(polled); // queues that left this worker or hold no PR now
    long listed = clock.monotonicTime();
    try {
      scm.readAhead(byRepository.keySet());
    } catch (RuntimeException e) {
      log.info(
          "could not read ahead for this round; each repository looks up its own: {}",
          e.toString());
    }
    long readAhead = clock.monotonicTime();
    List<CompletableFuture<Void>> reads = new ArrayList<>();
    int stillRead = 0;
    for (Map.Entry<OrgRepo, List<QueueKey>> repository : byRepository.entrySet()) {
      OrgRepo repo = repository.getKey();
      if (!reading.add(repo)) {
        stillRead++; // an earlier round's read of it has not ended
        continue;
      }
      CompletableFuture<Void> read = new CompletableFuture<>();
      reads.add(read);
      Runnable done =
          () -> {
            reading.remove(repo);
            read.complete(null);
          };
      try {
        lanes.execute(
            repo.repo().host(),
            repo.org(),
            () -> {
              try {
                pollRepository(repo, repository.getValue());
              } finally {
                done.run();
              }
            },
            done);
      } catch (RejectedExecutionException closing) {
        done.run();
        break;
      }
    }
    RoundTimes times = new RoundTimes(start, listed, readAhead, reads.size(), stillRead);
    return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
        .whenComplete((ok, error) -> ended(times, clock.monotonicTime()));
  }

  /**
   * When a round started, had listed its queues and had read ahead (the clock's monotonic nanos),
   * how many repositories it started reading and how many it left to an earlier round's read.
   */
  private record RoundTimes(long start, long listed, long readAhead, int read, int stillRead) {}

  private void ended(RoundTimes times, long end) {
    long took = end - times.start();
    round.record(took, TimeUnit.NANOSECONDS);
    int reported = slow.ended(took, end);
    if (reported == 0) {
      return;
    }
    log.info(
        "a poller round took {} ms (rounds longer than 1 s since the last report: {}): listing"
            + " the active queues {} ms, reading ahead {} ms, reading {} repositories {} ms"
            + " (waits for their hosts' threads included; {} left to an earlier round's read)",
        millis(took),
        reported,
        millis(times.listed() - times.start()),
        millis(times.readAhead() - times.listed()),
        times.read(),
        millis(end - times.readAhead()),
        times.stillRead());
  }

  private static long millis(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(nanos);
  }

  /**
   * Checks and fetches {@code repo} once, then reads the PRs of each of its active queues — but not
   * of a queue whose stored version and repository's {@link ScmProvider#refsVersion} are both what
   * they were at its last read (nothing it would read has changed), and, of a queue that changed
   * while the refs did not, only the PRs that changed in it since: a PR found as its queue held it
   * reads the same from the same refs. So a round costs the PRs that changed, not every PR queued.
   */
  private void pollRepository(OrgRepo repo, List<QueueKey> keys) {
    String problem = problem(repo);
    Optional<String> refs = problem == null ? refsVersion(repo) : Optional.empty();
    for (QueueKey key : keys) {
      try {
        if (problem != null && problem.equals(reported.get(key.id()))) {
          continue; // recorded already; nothing to read
        }
        Optional<Loaded> queue = lookUp(key.id());
        if (queue.isEmpty()) {
          continue;
        }
        long version = queue.get().queue().version();
        LastRead last = refs.isPresent() ? lastRead.get(key.id()) : null;
        boolean sameRefs = last != null && last.refs().equals(refs.get());
        if (sameRefs && last.queueVersion() == version) {
          unchanged.increment();
          continue;
        }
        Observed observed =
            observe(
                queue.get().queue().aggregate(),
                problem,
                false,
                sameRefs ? last.asHeld() : Map.of());
        if (refs.isPresent() && observed.whole()) {
          long whole = observed.sends().isEmpty() ? version : NOT_AS_HELD;
          // PRs are remembered only of a queue the cache held, so its budget bounds them too: one
          // it evicted is read from the store next round, and its PRs are forgotten then
          Map<Long, Held> held = queue.get().cached() ? observed.asHeld() : Map.of();
          lastRead.put(key.id(), new LastRead(refs.get(), whole, held));
        } else {
          lastRead.remove(key.id()); // nothing it read may be trusted: the next round reads all
        }
      } catch (RuntimeException e) {
        log.warn("could not poll {}; the next round retries: {}", key.id(), e.toString());
      }
    }
  }

  /**
   * What a queue's last read saw: its repository's refs, the queue's stored version when the read
   * sent nothing ({@link #NOT_AS_HELD} otherwise), and each PR the host showed as the queue held
   * it: with the same refs, such a PR reads the same while its queue holds it unchanged.
   */
  private record LastRead(String refs, long queueVersion, Map<Long, Held> asHeld) {}

  /** A PR's facts and mergeability as its queue held them when the host showed the same. */
  private record Held(PullRequestInfo pr, Mergeability mergeability) {
    static Held of(Entry entry) {
      return new Held(entry.pr(), entry.mergeability());
    }
  }

  private Optional<String> refsVersion(OrgRepo repo) {
    try {
      return scm.refsVersion(repo);
    } catch (RuntimeException e) {
      return Optional.empty(); // read every queue; the reads say what is wrong
    }
  }

  /**
   * Re-reads one queue's PRs now (a notify from the git server), off the caller's thread; the
   * future completes once every resulting command is on the queue's log.
   */
  @Override
  public CompletableFuture<Void> refresh(QueueKey key, boolean checksChanged) {
    while (true) {
      Waiting fresh = new Waiting();
      Waiting waiting = this.waiting.putIfAbsent(key.id(), fresh);
      if (waiting == null) {
        fresh.join(checksChanged);
        CompletableFuture.supplyAsync(() -> read(key, fresh), refreshes)
            .thenCompose(sends -> CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)))
            .whenComplete(
                (done, error) -> {
                  if (error == null) {
                    fresh.done.complete(null);
                  } else {
                    fresh.done.completeExceptionally(error);
                  }
                });
        return fresh.done;
      }
      if (waiting.join(checksChanged)) {
        return waiting.done; // its read starts after this request: it answers both
      }
      this.waiting.remove(key.id(), waiting); // started meanwhile: wait for a read of our own
    }
  }

  /**
   * A refresh of one queue that has not started reading yet: requests that come before it starts
   * join it (a landing brings a push and a closed PR, each asking for one), so a queue is read once
   * for them, not once each.
   */
  private static final class Waiting {
    final CompletableFuture<Void> done = new CompletableFuture<>();
    private boolean checksChanged;
    private boolean started;

    /** Joins this refresh unless it started reading; false when it did. */
    synchronized boolean join(boolean checks) {
      if (started) {
        return false;
      }
      checksChanged |= checks;
      return true;
    }

    synchronized boolean start() {
      started = true;
      return checksChanged;
    }
  }

  private List<CompletableFuture<?>> read(QueueKey key, Waiting refresh) {
    waiting.remove(key.id(), refresh);
    boolean checksChanged = refresh.start();
    scm.hostChanged(key.orgRepo()); // a refresh is asked for because the host said so
    return lookUp(key.id())
        .map(loaded -> loaded.queue().aggregate())
        .map(q -> observe(q, problem(key.orgRepo()), checksChanged, Map.of()).sends())
        .orElse(List.of());
  }

  /** Called by Spring when the worker stops: no refresh threads outlive their context. */
  @Override
  public void close() {
    refreshes.shutdownNow();
    rounds.close();
    lanes.close();
  }

  /**
   * Why the source host cannot serve {@code repo} now, or null once it is fetched: the sentence its
   * not-ready PRs show.
   */
  private String problem(OrgRepo repo) {
    try {
      if (!scm.serves(repo)) {
        return "no source host serves "
            + repo.repo().host()
            + "/"
            + repo.repo().slug()
            + " for this organization";
      }
      scm.fetch(repo);
      return null;
    } catch (UncheckedIOException e) {
      return e.getCause().getMessage();
    } catch (RuntimeException e) {
      return "the source host could not be read: " + e.getMessage();
    }
  }

  /**
   * Records a changed source problem, then (when there is none) the target's required checks when
   * they changed, then every PR that changed: on one key, in that order, so no PR is ready before
   * the checks that decide its runs are on the queue. A PR {@code asHeld} names, held as it names
   * it, is not read (the caller knows the host shows it so).
   */
  private Observed observe(
      QueueAggregate queue, String problem, boolean checksChanged, Map<Long, Held> asHeld) {
    List<CompletableFuture<?>> sends = new ArrayList<>();
    QueueKey key = queue.key();
    if (problem != null) {
      if (!problem.equals(queue.sourceProblem())) {
        sends.add(signals.send(key, new RecordSourceProblem(problem)));
        reported.remove(key.id());
      } else {
        reported.put(key.id(), problem); // seen recorded: later rounds need not load the queue
      }
      return new Observed(sends, false, Map.of());
    }
    String refused = null;
    Map<Long, Held> same = new HashMap<>();
    boolean whole = false;
    try {
      scm.requiredChecks(key.orgRepo(), key.branch(), checksChanged)
          .filter(read -> !recorded(queue, read))
          .ifPresent(read -> sends.add(signals.send(key, read)));
      whole = readPullRequests(queue, sends, asHeld, same);
    } catch (UncheckedIOException e) {
      // the host answers, but not for this (a permission missing): the PRs show why they wait
      refused = e.getCause().getMessage();
    }
    if (!Objects.equals(refused, queue.sourceProblem())) {
      sends.add(signals.send(key, new RecordSourceProblem(refused)));
    }
    return new Observed(sends, whole && refused == null, same);
  }

  /**
   * What a read of one queue sent, whether it read every PR of it (none unreadable, no problem),
   * and the PRs the host showed as the queue holds them. Only a whole read may spare a queue, or
   * its PRs, the next round's read while the repository is unchanged.
   */
  private record Observed(
      List<CompletableFuture<?>> sends, boolean whole, Map<Long, Held> asHeld) {}

  /**
   * Whether {@code head} merges into {@code target}, asked of the host once per pair. Asked outside
   * the remembered pairs' lock: the repositories of other hosts are read meanwhile.
   */
  private Mergeability mergeability(OrgRepo repo, String branch, String target, String head) {
    String pair = target + ".." + head;
    Mergeability known = merges.get(pair);
    if (known == null) {
      known = scm.mergeability(repo, branch, head);
      merges.put(pair, known);
    }
    return known;
  }

  /**
   * Reads each PR of {@code queue} but those {@code asHeld} names as the queue holds them, adding
   * to {@code same} every PR the host shows as held.
   *
   * @return whether every PR was read (none unreadable)
   */
  private boolean readPullRequests(
      QueueAggregate queue,
      List<CompletableFuture<?>> sends,
      Map<Long, Held> asHeld,
      Map<Long, Held> same) {
    boolean whole = true;
    QueueKey key = queue.key();
    OrgRepo repo = key.orgRepo();
    Optional<String> target = scm.branchHead(repo, key.branch());
    for (Entry entry : queue.entries()) {
      Held held = Held.of(entry);
      // a PR with dependencies is read every round: whether the host is asked depends on the queue
      boolean mayKeep = entry.dependsOn().isEmpty() && entry.pr().dependsOn().isEmpty();
      if (mayKeep && held.equals(asHeld.get(entry.prNumber()))) {
        same.put(entry.prNumber(), held);
        continue;
      }
      Optional<ScmPullRequest> pr;
      try {
        pr = scm.pullRequest(repo, entry.prNumber(), key.branch());
      } catch (PullRequestUnreadable e) {
        log.info("{}: {}; read again next round", key.id(), e.getMessage());
        whole = false;
        continue;
      }
      if (pr.isEmpty()) {
        // seen before, or the host says closed: a PR closed before its first read leaves too
        if (!entry.pr().sha().isEmpty() || scm.emptyMeansClosed(repo)) {
          sends.add(signals.send(key, RecordPullRequestState.closed(entry.prNumber())));
        } else if (mayKeep) {
          same.put(entry.prNumber(), held); // not pushed yet: the refs will say when it is
        }
        continue;
      }
      ScmPullRequest seen = pr.get();
      Mergeability mergeability =
          seen.mergeability() != null
              ? seen.mergeability()
              : target
                  .map(t -> mergeability(repo, key.branch(), t, seen.headSha()))
                  .orElse(Mergeability.NOT_MERGEABLE);
      RecordPullRequestState observed =
          new RecordPullRequestState(
              entry.prNumber(),
              true,
              seen.headSha(),
              seen.title(),
              seen.author(),
              seen.baseBranch(),
              seen.headBranch(),
              mergeability,
              seen.hold(),
              seen.dependsOn(),
              unknownDependencies(queue, entry, seen),
              seen.stackedOn());
      if (differs(entry, observed)) {
        sends.add(signals.send(key, observed));
      } else if (mayKeep) {
        same.put(entry.prNumber(), held);
      }
    }
    return whole;
  }

  /**
   * The host's answer for each dependency of {@code entry} (named by its submit or its head) that
   * the queue does not know: not in the queue and not among the PRs it concluded lately. Asked only
   * for those, so a queue whose dependencies are all in it costs no call.
   */
  private List<HostDependency> unknownDependencies(
      QueueAggregate queue, Entry entry, ScmPullRequest seen) {
    List<Long> named = new ArrayList<>(entry.dependsOn());
    seen.dependsOn().stream().filter(n -> !named.contains(n)).forEach(named::add);
    List<HostDependency> answers = new ArrayList<>();
    for (long n : named) {
      boolean known =
          n == entry.prNumber()
              || queue.activeEntry(n).isPresent()
              || queue.concluded().stream().anyMatch(c -> c.prNumber() == n);
      if (!known) {
        scm.dependency(queue.key().orgRepo(), n, queue.key().branch()).ifPresent(answers::add);
      }
    }
    return answers;
  }

  private static boolean recorded(QueueAggregate queue, RecordRequiredChecks read) {
    RequiredChecks now = queue.requiredChecks();
    return now != null
        && now.checks().equals(read.checks())
        && Objects.equals(now.problem(), read.problem());
  }

  private static boolean differs(Entry entry, RecordPullRequestState observed) {
    return !observed.sha().equals(entry.pr().sha())
        || !observed.title().equals(entry.pr().title())
        || !observed.author().equals(entry.pr().author())
        || !observed.baseBranch().equals(entry.pr().baseBranch())
        || observed.mergeability() != entry.mergeability()
        || !Objects.equals(observed.hold(), entry.pr().hold())
        || !observed.dependsOn().equals(entry.pr().dependsOn())
        || !observed.hostDependencies().equals(entry.pr().hostDependencies())
        || !Objects.equals(observed.stackedOn(), entry.pr().stackedOn());
  }
}
