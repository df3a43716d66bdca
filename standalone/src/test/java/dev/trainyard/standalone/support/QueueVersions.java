package dev.trainyard.standalone.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.worker.engine.CommandContext;
import dev.trainyard.worker.engine.EventApplier;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.QueueEngine;
import dev.trainyard.worker.store.QueueStore;
import dev.trainyard.worker.store.StoredQueue;
import dev.trainyard.worker.store.StoredQueues;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Stored queue versions built by the engine, and written as a worker's poll writes them. */
public final class QueueVersions {
  private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
  private static final QueueEngine ENGINE = new QueueEngine();

  private QueueVersions() {}

  /** A queue holding {@code prs} waiting PRs, as version 1. */
  public static StoredQueue full(QueueKey key, int prs) {
    QueueAggregate state = null;
    state = apply(state, key, new QueueCommand.CreateQueue(QueueMode.SINGLE, 1));
    for (long pr = 1; pr <= prs; pr++) {
      state = apply(state, key, new QueueCommand.SubmitPullRequest(pr, null, false));
    }
    Map<String, Long> rows = new HashMap<>();
    state.entries().forEach(e -> rows.put(e.id(), 1L));
    return stored(state, 1, rows);
  }

  /** Writes {@code next} over {@code before} (entry documents, then the queue document). */
  public static StoredQueue write(QueueStore store, StoredQueue next, StoredQueue before) {
    QueueStore.Prepared prepared = store.prepare(List.of(next), List.of(before));
    store.writeEntries(prepared);
    assertThat(store.saveAll(prepared)).isEmpty();
    return prepared.next().get(0);
  }

  /** The version after {@code current} once {@code command} is applied. */
  public static StoredQueue next(StoredQueue current, QueueCommand command) {
    QueueKey key = current.aggregate().key();
    QueueAggregate state = apply(current.aggregate(), key, command);
    Map<String, Long> rows = new HashMap<>(current.rowVersions());
    state.entries().stream()
        .filter(e -> !current.aggregate().entries().contains(e))
        .forEach(e -> rows.put(e.id(), current.version() + 1));
    return stored(state, current.version() + 1, rows).withEntryTags(current.entryTags());
  }

  private static QueueAggregate apply(QueueAggregate state, QueueKey key, QueueCommand command) {
    String id = "c" + (state == null ? 0 : state.nextSequence()) + command.hashCode();
    return EventApplier.applyAll(
        state, ENGINE.decide(state, key, command, new CommandContext(id, NOW)).events());
  }

  private static StoredQueue stored(QueueAggregate state, long version, Map<String, Long> rows) {
    return StoredQueues.of("org", state, version, rows, NOW);
  }

  public static QueueCommand recordState(long pr) {
    return new QueueCommand.RecordPullRequestState(
        pr,
        true,
        Long.toHexString(pr * 7919 + System.nanoTime()),
        "title " + pr,
        "author",
        "main",
        "head-" + pr,
        Mergeability.MERGEABLE,
        null,
        List.of());
  }
}
