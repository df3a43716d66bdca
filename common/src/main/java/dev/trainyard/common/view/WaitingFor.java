package dev.trainyard.common.view;

import dev.trainyard.common.queue.WireEnum;

/**
 * Why a PR that is in line and not in a test run waits for one (API.md §2 {@code waitingFor}), as
 * the worker decided when it last wrote the queue (SCHEDULING.md "Why a PR waits").
 */
public enum WaitingFor implements WireEnum {
  /**
   * It is next to be tested and starts when a run ahead of it ends (the queue's slots are full).
   */
  TEST_SLOT,
  /** It is in the next batch, which waits for more PRs until {@code batchingMaxWaitTimeMinutes}. */
  BATCH,
  /** Other PRs start before it: its turn comes after theirs. */
  RUNS_AHEAD,
  /** The predicted risks cut it from the next batch: the PRs before it are tested without it. */
  RISK_SPLIT,
  /** Its bisection run waits for one of the queue's {@code bisectionConcurrency} slots. */
  BISECTION,
  /** A PR it depends on is neither in a run of the chain nor landed. */
  DEPENDENCIES,
  /** The queue starts no runs: it is paused, or a mode switch waits for its runs to end. */
  QUEUE_PAUSED,
  /**
   * Parallel mode: the lanes its impacted targets overlap have no free slot, or take no new run
   * until a PR that spans them starts.
   */
  LANES,
  /** Parallel mode: its impacted targets overlap more than one lane; it starts once they land. */
  SPANS_LANES
}
