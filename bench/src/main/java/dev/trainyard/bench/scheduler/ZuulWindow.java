package dev.trainyard.bench.scheduler;

/**
 * Zuul's dependent-pipeline window with its documented defaults ({@code window} 20, {@code
 * window-floor} 3, linear increase by 1 for each change merged, exponential decrease by a factor of
 * 2 for each change that fails, no ceiling): how many changes of the queue are tested at once.
 */
final class ZuulWindow {
  static final int START = 20;
  static final int FLOOR = 3;
  static final int INCREASE = 1;
  static final int DECREASE_FACTOR = 2;

  private int size = START;

  int size() {
    return size;
  }

  /** A change merged: the window grows by one. */
  void merged() {
    size += INCREASE;
  }

  /** A change failed: the window halves, never below the floor. */
  void failed() {
    size = Math.max(FLOOR, size / DECREASE_FACTOR);
  }
}
