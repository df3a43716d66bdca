package dev.trainyard.worker.processing;

import dev.trainyard.common.command.CommandEnvelope;
import dev.trainyard.common.command.CommandReply;
import dev.trainyard.common.command.DeadCommand;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.QueueEngine;
import dev.trainyard.worker.projection.PublicEvents;
import dev.trainyard.worker.projection.RunViews;
import dev.trainyard.worker.signals.ScmRefresher;
import dev.trainyard.worker.store.Answer;
import dev.trainyard.worker.store.AnswerStore;
import dev.trainyard.worker.store.DeadCommandStore;
import dev.trainyard.worker.store.HistoryStore;
import dev.trainyard.worker.store.Outbox;
import dev.trainyard.worker.store.OutboxStore;
import dev.trainyard.worker.store.QueueCache;
import dev.trainyard.worker.store.QueueKeptChanging;
import dev.trainyard.worker.store.QueueStore;
import dev.trainyard.worker.store.StoredQueue;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Handles the commands of one poll. Per queue: load (or take from the cache), look up the answers
 * already given to the poll's commands (one read for the poll), decide the others in order ({@link
 * QueueBatch}). Then, for all changed queues together: write their entry documents and their
 * outboxes (which carry their batches' answers), write the queue documents (one atomic, versioned
 * single-document write each, sent in one round trip), write the answers and the history (its last
 * write journaled, which makes the poll's writes durable, ADR 0060), send events and replies, and
 * delete the outboxes once the broker has them. The answers of a batch that changed nothing are
 * stored before its replies are sent. A crash anywhere before the offset commit leads to a
 * redelivery that finds every command answered (from the outbox of the stored version, or the
 * answers collection) and only finishes publishing and replying. Each queue's resulting state goes
 * to the effect runner once it is stored, before it is published (an effect derives from the stored
 * state alone, as the runner's sweep already started them from whatever version the store holds),
 * and to what shows it elsewhere once it is published ({@link Afterwards}, ADR 0048). The store
 * round trips per poll are constant, so throughput grows with load.
 *
 * <p>A command that cannot be applied does not stall the partition: one whose decision throws is
 * dead at once ({@link QueueBatch}); when a poll's results cannot be stored for a permanent reason
 * ({@link Failures}), its commands are tried again one at a time, and the one whose result the
 * store refuses is recorded as dead on the queue as it was. Transient failures are thrown, and the
 * listener retries the poll with backoff.
 */
public class CommandProcessor {
  private static final Logger log = LoggerFactory.getLogger(CommandProcessor.class);
  private static final int MAX_WRITE_ATTEMPTS = 16;

  private final QueueEngine engine;
  private final QueueBatch.Decider decider;
  private final DeadCommandStore deadCommands;
  private final QueueStore store;
  private final OutboxStore outboxes;
  private final AnswerStore answers;
  private final HistoryStore history;
  private final Publisher publisher;
  private final PublicEvents publicEvents;
  private final InstantSource clock;
  private final ProcessingProbe probe;
  private final ScmRefresher refresher;
  private final Afterwards afterwards;
  private final RunViews runViews;
  private final QueueCache cache;
  private final PollTelemetry telemetry;
  private final Fence fence;

  public CommandProcessor(
      QueueStore store,
      OutboxStore outboxes,
      AnswerStore answers,
      HistoryStore history,
      DeadCommandStore deadCommands,
      Publisher publisher,
      PublicEvents publicEvents,
      InstantSource clock,
      ProcessingProbe probe,
      ScmRefresher refresher,
      Afterwards afterwards,
      QueueEngine engine,
      PollTelemetry telemetry,
      Fence fence,
      QueueCache cache) {
    this.telemetry = telemetry;
    this.cache = cache;
    this.fence = fence;
    this.engine = engine;
    this.decider = new QueueBatch.Decider(engine, publicEvents, probe);
    this.deadCommands = deadCommands;
    this.store = store;
    this.outboxes = outboxes;
    this.answers = answers;
    this.history = history;
    this.publisher = publisher;
    this.publicEvents = publicEvents;
    this.runViews = new RunViews(publicEvents);
    this.clock = clock;
    this.probe = probe;
    this.refresher = refresher;
    this.afterwards = afterwards;
  }

  public void process(List<CommandEnvelope> envelopes) {
    PollTelemetry.Poll poll = telemetry.begin(envelopes);
    try {
      process(envelopes, poll);
    } finally {
      poll.end();
    }
  }

  private void process(List<CommandEnvelope> envelopes, PollTelemetry.Poll poll) {
    Map<String, List<CommandEnvelope>> byQueue = new LinkedHashMap<>();
    Instant horizon = clock.instant().minus(StoredQueue.RECENT_WINDOW);
    List<CommandEnvelope> tooOld = new ArrayList<>();
    for (CommandEnvelope e : envelopes) {
      if (e.sentAt() != null && e.sentAt().isBefore(horizon)) {
        tooOld.add(e);
      } else if (fence.stale(e)) {
        // an effect a previous owner of the queue started: it may have raced this worker's own
        log.info(
            "refused {} of {}: its effect was started in ownership epoch {}, before this worker"
                + " took the queue",
            e.command().getClass().getSimpleName(),
            e.queue().id(),
            e.epoch());
        poll.fenced(e);
      } else if (e.command() instanceof QueueCommand.RefreshFromScm) {
        refresh(e);
      } else {
        byQueue.computeIfAbsent(e.queue().id(), id -> new ArrayList<>()).add(e);
      }
    }
    refuseTooOld(tooOld);
    tooOld.forEach(poll::dead);
    try {
      decideAndStore(byQueue, Map.of(), poll);
    } catch (RuntimeException e) {
      if (!Failures.isPermanent(e)) {
        throw e;
      }
      // some result cannot be stored: find its command (the others are applied, or skipped as
      // applied already when a queue of the poll was written before the failure)
      byQueue.values().stream().flatMap(List::stream).forEach(one -> processAlone(one, poll));
    }
  }

  /**
   * Commands sent longer ago than a queue remembers the ids it applied ({@link
   * StoredQueue#RECENT_WINDOW}): one could be a retry of a command applied and forgotten since, so
   * none is applied. Each is kept as a dead command (an operator may replay it) and answered as
   * one. The command topic keeps no more than that window; this holds when a consumer starts from
   * an old offset all the same.
   */
  private void refuseTooOld(List<CommandEnvelope> tooOld) {
    if (tooOld.isEmpty()) {
      return;
    }
    Instant now = clock.instant();
    deadCommands.record(
        tooOld.stream()
            .map(
                e ->
                    DeadCommand.of(
                        e,
                        new IllegalStateException(
                            "sent at "
                                + e.sentAt()
                                + ", longer ago than the "
                                + StoredQueue.RECENT_WINDOW.toHours()
                                + " h in which a queue remembers the commands it applied: not"
                                + " applied, so that a retry of a forgotten command cannot apply"
                                + " twice"),
                        now))
            .toList());
    Publisher.await(
        tooOld.stream()
            .filter(e -> e.correlationId() != null)
            .map(e -> publisher.reply(Publisher.Reply.to(e, CommandReply.fault(e))))
            .toArray(CompletableFuture[]::new));
  }

  /** One command in a poll of its own; dead, on the queue as it was, when it cannot be stored. */
  private void processAlone(CommandEnvelope envelope, PollTelemetry.Poll poll) {
    Map<String, List<CommandEnvelope>> alone = Map.of(envelope.queue().id(), List.of(envelope));
    try {
      decideAndStore(alone, Map.of(), poll);
    } catch (RuntimeException e) {
      if (!Failures.isPermanent(e)) {
        throw e;
      }
      cache.evict(envelope.queue().id());
      try {
        decideAndStore(alone, Map.of(envelope.commandId(), e), poll);
      } catch (RuntimeException again) {
        if (!Failures.isPermanent(again)) {
          throw again;
        }
        // the queue itself cannot be read or written: keep the command, answer it, go on
        deadCommands.record(List.of(DeadCommand.of(envelope, again, clock.instant())));
        poll.dead(envelope);
        if (envelope.correlationId() != null) {
          Publisher.await(
              publisher.reply(Publisher.Reply.to(envelope, CommandReply.fault(envelope))));
        }
      }
    }
  }

  private void decideAndStore(
      Map<String, List<CommandEnvelope>> commands,
      Map<String, RuntimeException> condemned,
      PollTelemetry.Poll poll) {
    Map<String, List<CommandEnvelope>> byQueue = new LinkedHashMap<>(commands);
    for (int attempt = 0; attempt < MAX_WRITE_ATTEMPTS && !byQueue.isEmpty(); attempt++) {
      Set<String> conflicted = processOnce(byQueue, condemned, poll);
      byQueue.keySet().retainAll(conflicted);
      conflicted.forEach(cache::evict); // another writer got there first: read again
    }
    if (!byQueue.isEmpty()) {
      throw new QueueKeptChanging(byQueue.keySet().toString(), MAX_WRITE_ATTEMPTS);
    }
  }

  /**
   * @return the queues whose write lost a version race and must be decided again
   */
  private Set<String> processOnce(
      Map<String, List<CommandEnvelope>> byQueue,
      Map<String, RuntimeException> condemned,
      PollTelemetry.Poll poll) {
    Instant now = clock.instant();
    List<QueueBatch> batches = new ArrayList<>();
    Set<String> cached = new HashSet<>();
    Map<String, StoredQueue> loaded = new LinkedHashMap<>();
    for (Map.Entry<String, List<CommandEnvelope>> queue : byQueue.entrySet()) {
      loaded.put(
          queue.getKey(), load(queue.getKey(), queue.getValue().get(0).queue().org(), cached));
    }
    // after the loads: a version's outbox left unpublished by a crash has stored its answers
    Map<String, Answer> remembered =
        answers.find(
            byQueue.values().stream()
                .flatMap(List::stream)
                .map(CommandEnvelope::commandId)
                .collect(Collectors.toSet()));
    for (Map.Entry<String, List<CommandEnvelope>> queue : byQueue.entrySet()) {
      Instant deciding = Instant.now();
      batches.add(
          QueueBatch.decide(
              loaded.get(queue.getKey()),
              queue.getValue(),
              remembered,
              decider,
              condemned,
              now,
              poll::traceparent));
      poll.decided(queue.getKey(), deciding);
    }
    Set<String> stale = staleAnswers(batches, cached);
    batches = batches.stream().filter(b -> !stale.contains(b.before().id())).toList();
    List<QueueBatch> changed = batches.stream().filter(QueueBatch::changed).toList();
    List<QueueBatch.Written> written = changed.stream().map(b -> b.next(engine, runViews)).toList();
    Instant storing = Instant.now();
    QueueStore.Prepared versions =
        store.prepare(
            written.stream().map(QueueBatch.Written::queue).toList(),
            changed.stream().map(QueueBatch::before).toList());
    // dead commands are on record before their answers are: a crash in between only repeats them
    deadCommands.record(batches.stream().flatMap(b -> b.dead().stream()).toList());
    // the entry documents and the outbox, unjournaled, then the queue document that names them: a
    // crash keeps a prefix of the writes, so never the queue document alone (ADR 0051). The queue
    // document asks for the journal unless each version's heads follow it, journaled, before
    // anything acts on it (ADR 0060)
    store.writeEntries(versions);
    outboxes.writeAll(written.stream().map(QueueBatch.Written::outbox).toList());
    Set<String> conflicted =
        written.stream().allMatch(w -> HistoryStore.writesCurrent(w.outbox()))
            ? store.saveAllAheadOfAJournaledWrite(versions)
            : store.saveAll(versions);
    // the outboxes of versions that lost: no queue names them, nothing publishes them
    outboxes.delete(
        written.stream()
            .filter(w -> conflicted.contains(w.queue().id()))
            .map(QueueBatch.Written::outbox)
            .toList());
    deadCommands.forget(
        changed.stream()
            .filter(b -> conflicted.contains(b.before().id()))
            .flatMap(b -> b.dead().stream().map(DeadCommand::id))
            .toList());
    List<QueueBatch.Written> stored =
        written.stream().filter(w -> !conflicted.contains(w.queue().id())).toList();
    List<QueueBatch> kept =
        batches.stream().filter(b -> !conflicted.contains(b.before().id())).toList();
    // the answers of batches that wrote no version (those of the others are in their outboxes)
    answers.record(
        kept.stream().filter(b -> !b.changed()).flatMap(b -> b.answers().stream()).toList());
    List<Outbox> storedOutboxes = stored.stream().map(QueueBatch.Written::outbox).toList();
    writeHistory(storedOutboxes);
    kept.stream().flatMap(b -> b.handled().stream()).forEach(probe::afterStore);
    poll.stored(storing);
    // the stored state (durable with its heads) asks for its effects now, while its events and
    // replies travel: a landing does not wait for the broker's acknowledgements (ADR 0048)
    kept.forEach(b -> handOn(b, poll, afterwards::stored));
    Instant publishing = Instant.now();
    publish(storedOutboxes, kept.stream().flatMap(b -> b.replies().stream()).toList());
    poll.published(publishing);
    poll.published(stored);
    kept.forEach(poll::concluded);
    versions.next().stream()
        .filter(q -> !conflicted.contains(q.id()))
        .forEach(q -> cache.put(q.published()));
    kept.forEach(b -> handOn(b, poll, afterwards::published));
    return union(conflicted, stale);
  }

  /**
   * Who hears of each queue state a poll produced. {@link #stored} runs once the version is stored,
   * before it is published: the effect runner, whose effects derive from the stored state alone
   * (ADR 0048). {@link #published} runs once its events and replies are out: what shows the queue
   * elsewhere (GitHub's checks link to pages that read the published rows).
   */
  public interface Afterwards {
    void stored(QueueAggregate state);

    default void published(QueueAggregate state) {}
  }

  /**
   * Hands the queue's new state to {@code observer} in the span of the batch's last command that
   * changed it, so the effects it starts continue that command's trace. What the observer throws is
   * logged, not thrown: the poll's replies and events must still go out, and the effect runner's
   * sweep starts from the stored state whatever was missed here.
   */
  private void handOn(
      QueueBatch batch, PollTelemetry.Poll poll, Consumer<QueueAggregate> observer) {
    List<CommandEnvelope> applied = batch.applied();
    try (var scope =
        applied.isEmpty() ? null : telemetry.inScope(poll.span(applied.get(applied.size() - 1)))) {
      observer.accept(batch.state());
    } catch (RuntimeException e) {
      log.error(
          "Queue {}: what follows its stored state (effects, checks) failed; the effect sweep"
              + " retries it: {}",
          batch.before().id(),
          e.toString(),
          e);
    }
  }

  /**
   * The queues whose batch writes nothing (every command refused, or accepted with no change)
   * decided on a cached copy that is no longer the stored version: another worker held the
   * partition meanwhile. A write is checked by the store itself; an answer that writes nothing is
   * checked here, by one read of the stored versions per poll.
   */
  private Set<String> staleAnswers(List<QueueBatch> batches, Set<String> cached) {
    Map<String, Long> decidedOn = new HashMap<>();
    batches.stream()
        .filter(b -> !b.changed() && cached.contains(b.before().id()))
        .forEach(b -> decidedOn.put(b.before().id(), b.before().version()));
    if (decidedOn.isEmpty()) {
      return Set.of();
    }
    Map<String, Long> stored = store.versions(decidedOn.keySet());
    return decidedOn.entrySet().stream()
        .filter(e -> !e.getValue().equals(stored.getOrDefault(e.getKey(), 0L)))
        .map(Map.Entry::getKey)
        .collect(Collectors.toSet());
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new HashSet<>(a);
    all.addAll(b);
    return all;
  }

  /**
   * Forgets the cached queues of {@code partitions} (by {@code partitionOf} a queue id): called
   * when they are assigned or revoked, so that a queue whose partition comes back after another
   * worker held it is read again. The queues of partitions this worker kept stay: no one else
   * decided them meanwhile, and a peer's restart does not make every queue of this one cold.
   */
  public void forgetCachedQueues(Set<Integer> partitions, ToIntFunction<String> partitionOf) {
    cache.forget(id -> partitions.contains(partitionOf.applyAsInt(id)));
  }

  /** How many queues this worker holds in memory (those of its partitions it decided lately). */
  public int cachedQueues() {
    return cache.size();
  }

  /** The heap the queues this worker holds in memory take, as the cache estimates it. */
  public long cachedQueueBytes() {
    return cache.bytes();
  }

  /**
   * Source-host reads are blocking I/O: they run off this listener thread, and the reply goes out
   * when their commands are on the log. A refresh lost in a crash is repeated by the next poll.
   */
  private void refresh(CommandEnvelope envelope) {
    refresher
        .refresh(
            envelope.queue(), ((QueueCommand.RefreshFromScm) envelope.command()).checksChanged())
        .whenComplete(
            (done, error) -> {
              if (envelope.correlationId() != null && error == null) {
                publisher.reply(
                    Publisher.Reply.to(
                        envelope,
                        CommandReply.accepted(envelope.correlationId(), envelope.commandId())));
              }
            });
  }

  /** The queue, from the cache when it holds it (its id then goes to {@code cached}). */
  private StoredQueue load(String id, String org, Set<String> cached) {
    Optional<StoredQueue> hit = cache.get(id);
    hit.ifPresent(q -> cached.add(id));
    StoredQueue current = hit.or(() -> store.load(id)).orElse(StoredQueue.absent(id, org));
    if (current.outboxId() != null) {
      // a predecessor stored this version but may have crashed before publishing it
      List<Outbox> left = outboxes.find(current.outboxId()).stream().toList();
      writeHistory(left);
      publish(left, List.of());
      current = current.published();
      cache.put(current);
    }
    return current;
  }

  /**
   * What the published versions leave in the store before anything is sent: the answers (a
   * redelivery or a retry finds them), the versioned rows, the test runs and each PR's head (what a
   * reply's client reads next), the last write journaled. It makes every write before it durable,
   * the queue documents included (ADR 0060); with no head or run to write, the answers' write is
   * the journaled one.
   */
  private void writeHistory(List<Outbox> published) {
    List<Answer> carried = published.stream().flatMap(o -> o.answers().stream()).toList();
    if (published.stream().allMatch(HistoryStore::writesCurrent)) {
      answers.recordFromOutboxes(carried);
    } else {
      answers.record(carried);
    }
    history.write(published);
  }

  /**
   * Once the versions' history is {@link #writeHistory written}, events and replies travel to the
   * broker together; the outboxes are deleted once all is acknowledged, unjournaled (ADR 0022,
   * 0037, 0060).
   */
  private void publish(List<Outbox> published, List<Publisher.Reply> replies) {
    CompletableFuture<?>[] sends =
        Stream.concat(
                published.stream().map(o -> publisher.events(o.queueId(), o.org(), o.events())),
                replies.stream().map(publisher::reply))
            .toArray(CompletableFuture[]::new);
    Publisher.await(sends);
    outboxes.delete(published);
  }
}
