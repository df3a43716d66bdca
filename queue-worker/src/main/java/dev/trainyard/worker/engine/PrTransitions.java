package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.PrState;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every state change a PR may make (SCHEDULING.md "PR states"), as one declared table. {@link
 * Entry} refuses any other change; the engine's tests check that every change declared here is made
 * by some test.
 */
public final class PrTransitions {
  static final TransitionTable<PrState> TABLE =
      TransitionTable.of("PR", PrState.class, PrState.NOT_READY, PrState.PENDING)
          .allow(PrState.NOT_READY, PrState.PENDING, PrState.CANCELLED)
          // pending → failed / pending_failure: its run's branch could not be built (a conflict)
          .allow(
              PrState.PENDING,
              PrState.NOT_READY,
              PrState.TESTING,
              PrState.CANCELLED,
              PrState.FAILED,
              PrState.PENDING_FAILURE)
          .allow(
              PrState.TESTING,
              PrState.TESTS_PASSED,
              PrState.PENDING_FAILURE,
              PrState.FAILED,
              PrState.PENDING,
              PrState.CANCELLED)
          // tests_passed → failed: the merge method could not replay it onto the target (a rebase)
          .allow(
              PrState.TESTS_PASSED,
              PrState.MERGED,
              PrState.PENDING,
              PrState.CANCELLED,
              PrState.FAILED)
          // pending_failure → tests_passed: a green run behind it vindicates it (optimistic merge)
          .allow(
              PrState.PENDING_FAILURE,
              PrState.FAILED,
              PrState.PENDING,
              PrState.CANCELLED,
              PrState.TESTS_PASSED);

  private PrTransitions() {}

  public static boolean isAllowed(PrState from, PrState to) {
    return TABLE.isAllowed(from, to);
  }

  /** The declared transitions between states as {@code from->to} strings. */
  public static Set<String> declared() {
    Set<String> moves = new TreeSet<>(TABLE.declared());
    moves.removeIf(m -> m.startsWith(TransitionTable.NEW + "->"));
    return moves;
  }
}
