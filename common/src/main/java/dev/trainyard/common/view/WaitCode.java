package dev.trainyard.common.view;

import java.util.Arrays;

/**
 * One character per PR of a queue's forecast ({@link QueueForecast#waits()}): whether it is in a
 * run, and if it waits for one, why ({@link WaitingFor}) and whether it will run alone. One
 * character, because every command rewrites the queue's document.
 */
public enum WaitCode {
  /** Not waiting for a run: not ready, or written before the codes were kept. */
  NONE('-', null, Alone.NO),
  /** In a run being built or tested: what is tested instead of the PRs behind it. */
  IN_RUN('t', null, Alone.NO),
  /**
   * In a run with a verdict (passed, waiting to land; or red while runs ahead are undecided or its
   * test results are awaited).
   */
  DECIDED('w', null, Alone.NO),
  TEST_SLOT('s', WaitingFor.TEST_SLOT, Alone.NO),
  TEST_SLOT_ALONE('S', WaitingFor.TEST_SLOT, Alone.BY_FLAG),
  TEST_SLOT_RISKY('r', WaitingFor.TEST_SLOT, Alone.BY_RISK),
  /**
   * Next, with a slot free, but with CI spending past the queue's budget, the price of speculation
   * holds a run that far behind undecided runs: it starts once enough runs ahead pass or leave
   * (SCHEDULING.md "Speculation at a price").
   */
  TEST_SLOT_PRICED('P', WaitingFor.TEST_SLOT, Alone.NO),
  BATCH('b', WaitingFor.BATCH, Alone.NO),
  RUNS_AHEAD('a', WaitingFor.RUNS_AHEAD, Alone.NO),
  RUNS_AHEAD_ALONE('A', WaitingFor.RUNS_AHEAD, Alone.BY_FLAG),
  RUNS_AHEAD_RISKY('q', WaitingFor.RUNS_AHEAD, Alone.BY_RISK),
  /** Parallel mode: behind an earlier waiting PR whose impacted targets overlap its own. */
  OVERLAPPED('o', WaitingFor.RUNS_AHEAD, Alone.NO),
  RISK_SPLIT('c', WaitingFor.RISK_SPLIT, Alone.NO),
  BISECTION('h', WaitingFor.BISECTION, Alone.NO),
  DEPENDENCIES('d', WaitingFor.DEPENDENCIES, Alone.NO),
  QUEUE_PAUSED('p', WaitingFor.QUEUE_PAUSED, Alone.NO),
  LANES('l', WaitingFor.LANES, Alone.NO),
  /** Parallel mode: its lane has a slot, but takes no new run until a PR spanning it starts. */
  LANES_HELD('L', WaitingFor.LANES, Alone.NO),
  SPANS_LANES('x', WaitingFor.SPANS_LANES, Alone.NO);

  /**
   * Whether a PR of a batching queue will run alone: no; by a flag (submitted with {@code noBatch},
   * or isolated by a bisection); by a predicted risk too high for any batch to pay.
   */
  public enum Alone {
    NO,
    BY_FLAG,
    BY_RISK
  }

  private static final WaitCode[] BY_CHAR = new WaitCode[128];

  static {
    Arrays.stream(values()).forEach(c -> BY_CHAR[c.code] = c);
  }

  private final char code;
  private final WaitingFor reason;
  private final Alone alone;

  WaitCode(char code, WaitingFor reason, Alone alone) {
    this.code = code;
    this.reason = reason;
    this.alone = alone;
  }

  public char code() {
    return code;
  }

  /** Why it waits; null when it does not wait for a run. */
  public WaitingFor reason() {
    return reason;
  }

  public Alone alone() {
    return alone;
  }

  /**
   * Whether a PR with this code goes to a run before the PRs behind it in a single-mode line: it is
   * in the next run, or waits only for the PRs ahead of it.
   */
  boolean goesFirst() {
    return reason == WaitingFor.TEST_SLOT
        || reason == WaitingFor.BATCH
        || reason == WaitingFor.RUNS_AHEAD
        || reason == WaitingFor.RISK_SPLIT;
  }

  /** The code {@code c} stands for; {@link #NONE} for anything else (a document of another day). */
  public static WaitCode of(char c) {
    WaitCode code = c < BY_CHAR.length ? BY_CHAR[c] : null;
    return code == null ? NONE : code;
  }
}
