package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.QueueSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * Which waiting PRs the next run carries (SCHEDULING.md "Batching and bisection"). Without {@code
 * batch}, the first one alone. With it, up to {@code batchingMinSize} in queue order (or the size
 * adaptive batching chooses, {@link SelfTuning#batchSize}), stopping at a {@code noBatch} or
 * isolated PR (which always runs alone, when its turn comes); a partial batch waits until the PR
 * that has waited longest has waited {@code batchingMaxWaitTimeMinutes}. When any of those PRs
 * carries a predicted risk the queue trusts ({@link #risk}), they are split, in order, into the
 * batches with the fewest expected CI runs in all by their risks, and the batch is the first of
 * those ({@link SelfTuning#bestPrefix}; a PR without a prediction counts at the failure rate the
 * queue observed; up to {@code batchingMaxSize} with adaptive batching, stopping at a PR that runs
 * alone as before); a batch cut short by risk, or as large as the size the queue would batch
 * without predictions, starts at once, and a PR predicted (and trusted) at {@link
 * SelfTuning#ALONE_ABOVE} or more runs alone (SCHEDULING.md "Predicted risk").
 */
final class Batches {
  private Batches() {}

  /**
   * The PRs of the next run, and until when they wait for more (null: start now); {@code cut}: the
   * PRs behind them that the predicted risks split off (they wait for the run after).
   */
  record Next(List<Entry> entries, Instant waitUntil, List<Entry> cut) {
    Next(List<Entry> entries, Instant waitUntil) {
      this(entries, waitUntil, List.of());
    }

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
    if (!settings.batch() || alone(state, first)) {
      return new Next(List.of(first), null);
    }
    long size = SelfTuning.batchSize(settings, state.history(), waiting.size(), startable(state));
    long largest = settings.batchingAdaptive() ? SelfTuning.largestBatch(settings) : size;
    List<Entry> candidates = new ArrayList<>();
    boolean closed = false; // a PR that runs alone, or the largest size, ends the batch
    for (Entry e : waiting) {
      if (candidates.size() == largest || alone(state, e)) {
        closed = true;
        break;
      }
      candidates.add(e);
    }
    boolean predicted = candidates.stream().anyMatch(e -> risk(state, e) != null);
    List<Entry> batch =
        predicted ? candidates : candidates.subList(0, (int) Math.min(size, candidates.size()));
    int carried = predicted ? byRisk(state, batch) : batch.size();
    boolean cutByRisk = carried < batch.size();
    if (cutByRisk || batch.size() >= size || (closed && batch.size() == candidates.size())) {
      return new Next(
          List.copyOf(batch.subList(0, carried)),
          null,
          List.copyOf(batch.subList(carried, batch.size())));
    }
    Instant oldest =
        batch.stream().map(Entry::stateChangedAt).min(Instant::compareTo).orElseThrow();
    return new Next(batch, oldest.plus(Duration.ofMinutes(settings.batchingMaxWaitTimeMinutes())));
  }

  /**
   * For batches of b PRs, how many runs the chain may still start before one of its runs ends or
   * lands: as many as {@link RunPlanner#slotFree} lets start one after another.
   */
  static LongUnaryOperator startable(QueueAggregate state) {
    List<TestRun> chain = state.runs().chain();
    long window = RunPlanner.window(state);
    long underTest = chain.stream().filter(TestRun::isUndecided).count();
    long prs = RunPlanner.prs(chain);
    return b -> {
      long k = 0;
      while (RunPlanner.slotFree(underTest + k, chain.size() + k, prs + k * b, window)) {
        k++;
      }
      return k;
    };
  }

  /** How many of {@code batch}, some of which carry predicted risks, the next run carries. */
  private static int byRisk(QueueAggregate state, List<Entry> batch) {
    return SelfTuning.bestPrefix(
        risks(state, batch),
        SelfTuning.concurrency(state.settings(), state.history()),
        Math.max(1, state.settings().bisectionConcurrency()));
  }

  /** Each PR's {@link #risk}, or the failure rate the queue observed for one without. */
  static double[] risks(QueueAggregate state, List<Entry> entries) {
    double observed = SelfTuning.observedFailureRate(state.settings(), state.history());
    return entries.stream()
        .mapToDouble(
            e -> {
              Double risk = risk(state, e);
              return risk != null ? risk : observed;
            })
        .toArray();
  }

  /**
   * The risk the queue spends by for {@code e}: the one its submit predicted, once the queue's
   * predictions have shown that they tell failures from merges ({@link PredictionScore}); else
   * none, as if it had not been given.
   */
  static Double risk(QueueAggregate state, Entry e) {
    return e.predictedRisk() != null && state.history().predictions().discriminates()
        ? e.predictedRisk()
        : null;
  }

  /** {@code noBatch}, isolated, or predicted to fail too often for any batch to pay. */
  static boolean alone(QueueAggregate state, Entry e) {
    if (e.noBatch() || e.isolated()) {
      return true;
    }
    Double risk = risk(state, e);
    return risk != null && risk >= SelfTuning.ALONE_ABOVE;
  }
}
