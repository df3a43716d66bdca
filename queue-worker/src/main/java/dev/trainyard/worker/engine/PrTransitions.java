package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.PrState;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every state change a PR may make (SCHEDULING.md "PR states"), as one declared table. The engine's
 * tests check both directions: no rule makes a change that is not declared here, and every change
 * declared here is made by some test.
 */
public final class PrTransitions {
  private static final Map<PrState, Set<PrState>> ALLOWED = new EnumMap<>(PrState.class);

  static {
    allow(PrState.NOT_READY, PrState.PENDING, PrState.CANCELLED);
    // pending → failed / pending_failure: its run's branch could not be built (a conflict)
    allow(
        PrState.PENDING,
        PrState.NOT_READY,
        PrState.TESTING,
        PrState.CANCELLED,
        PrState.FAILED,
        PrState.PENDING_FAILURE);
    allow(
        PrState.TESTING,
        PrState.TESTS_PASSED,
        PrState.PENDING_FAILURE,
        PrState.FAILED,
        PrState.PENDING,
        PrState.CANCELLED);
    // tests_passed → failed: the merge method could not replay it onto the target (a rebase)
    allow(PrState.TESTS_PASSED, PrState.MERGED, PrState.PENDING, PrState.CANCELLED, PrState.FAILED);
    // pending_failure → tests_passed: a green run behind it vindicates it (optimistic merge)
    allow(
        PrState.PENDING_FAILURE,
        PrState.FAILED,
        PrState.PENDING,
        PrState.CANCELLED,
        PrState.TESTS_PASSED);
  }

  private PrTransitions() {}

  private static void allow(PrState from, PrState... to) {
    ALLOWED.put(from, EnumSet.of(to[0], to));
  }

  public static boolean isAllowed(PrState from, PrState to) {
    return ALLOWED.getOrDefault(from, Set.of()).contains(to);
  }

  /** The declared transitions as {@code from->to} strings. */
  public static Set<String> declared() {
    Set<String> all = new TreeSet<>();
    ALLOWED.forEach((from, tos) -> tos.forEach(to -> all.add(from + "->" + to)));
    return all;
  }
}
