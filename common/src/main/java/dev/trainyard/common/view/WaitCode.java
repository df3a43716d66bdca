package dev.trainyard.common.view;

import java.util.Arrays;

/**
 * One character per PR of a queue's forecast ({@link QueueForecast#waits()}): whether it is in a
 * run, and if it waits, why ({@link WaitingFor}) and whether it will run alone. One character,
 * because every command rewrites the queue's document.
 */
public enum WaitCode {
  /** Not waiting for a run: not ready, or beyond the forecast. */
  NONE('-', null, Alone.NO),
  /** In a test run now (or passed, waiting to land). */
  IN_RUN('t', null, Alone.NO),
  TEST_SLOT('s', WaitingFor.TEST_SLOT, Alone.NO),
  TEST_SLOT_ALONE('S', WaitingFor.TEST_SLOT, Alone.BY_FLAG),
  TEST_SLOT_RISKY('r', WaitingFor.TEST_SLOT, Alone.BY_RISK),
  BATCH('b', WaitingFor.BATCH, Alone.NO),
  RUNS_AHEAD('a', WaitingFor.RUNS_AHEAD, Alone.NO),
  RUNS_AHEAD_ALONE('A', WaitingFor.RUNS_AHEAD, Alone.BY_FLAG),
  RUNS_AHEAD_RISKY('q', WaitingFor.RUNS_AHEAD, Alone.BY_RISK),
  RISK_SPLIT('c', WaitingFor.RISK_SPLIT, Alone.NO),
  DEPENDENCIES('d', WaitingFor.DEPENDENCIES, Alone.NO),
  QUEUE_PAUSED('p', WaitingFor.QUEUE_PAUSED, Alone.NO),
  LANES('l', WaitingFor.LANES, Alone.NO);

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

  /** The code of {@code reason} for a PR that runs {@code alone}. */
  public static WaitCode of(WaitingFor reason, Alone alone) {
    return Arrays.stream(values())
        .filter(c -> c.reason == reason && c.alone == alone)
        .findFirst()
        .orElseGet(
            () ->
                Arrays.stream(values()).filter(c -> c.reason == reason).findFirst().orElseThrow());
  }

  /** The code {@code c} stands for; {@link #NONE} for anything else (a document of another day). */
  public static WaitCode of(char c) {
    WaitCode code = c < BY_CHAR.length ? BY_CHAR[c] : null;
    return code == null ? NONE : code;
  }
}
