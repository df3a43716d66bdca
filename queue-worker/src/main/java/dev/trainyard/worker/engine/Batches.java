package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.QueueSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which waiting PRs the next run carries (SCHEDULING.md "Batching and bisection"). Without {@code
 * batch}, the first one alone. With it, up to {@code batchingMinSize} in queue order (or the size
 * adaptive batching chooses, {@link SelfTuning#batchSize}), stopping at a {@code noBatch} or
 * isolated PR (which always runs alone, when its turn comes); a partial batch waits until the PR
 * that has waited longest has waited {@code batchingMaxWaitTimeMinutes}.
 */
final class Batches {
  private Batches() {}

  /** The PRs of the next run, and until when they wait for more (null: start now). */
  record Next(List<Entry> entries, Instant waitUntil) {
    boolean startsAt(Instant now) {
      return !entries.isEmpty() && (waitUntil == null || !waitUntil.isAfter(now));
    }
  }

  static Next next(QueueAggregate state, List<Entry> waiting) {
    QueueSettings settings = state.settings();
    if (waiting.isEmpty()) {
      return new Next(List.of(), null);
    }
    Entry first = waiting.get(0);
    if (!settings.batch() || alone(first)) {
      return new Next(List.of(first), null);
    }
    long size = SelfTuning.batchSize(settings, state.history());
    List<Entry> batch = new ArrayList<>();
    for (Entry e : waiting) {
      if (batch.size() == size || alone(e)) {
        return new Next(batch, null);
      }
      batch.add(e);
    }
    if (batch.size() == size) {
      return new Next(batch, null);
    }
    Instant oldest =
        batch.stream().map(Entry::stateChangedAt).min(Instant::compareTo).orElseThrow();
    return new Next(batch, oldest.plus(Duration.ofMinutes(settings.batchingMaxWaitTimeMinutes())));
  }

  private static boolean alone(Entry e) {
    return e.noBatch() || e.isolated();
  }

  static Optional<Instant> deadline(QueueAggregate state, List<Entry> waiting) {
    return Optional.ofNullable(next(state, waiting).waitUntil());
  }
}
