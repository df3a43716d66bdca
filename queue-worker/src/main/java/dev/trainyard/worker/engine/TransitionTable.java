package dev.trainyard.worker.engine;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A declared set of state changes of one kind of thing (a PR, a test run, a queue): the states it
 * may be created in, and for each state the states it may move to. The engine checks every change
 * it makes against its table ({@link #check}); the engine's tests check that every declared change
 * is made by some test ({@code TransitionCoverageTest}).
 */
final class TransitionTable<S extends Enum<S>> {
  /** How a creation reads in {@link #declared()}: {@code new->STATE}. */
  static final String NEW = "new";

  private final String thing;
  private final Class<S> type;
  private final Set<S> initial;
  private final Map<S, Set<S>> allowed;

  private TransitionTable(String thing, Class<S> type, Set<S> initial, Map<S, Set<S>> allowed) {
    this.thing = thing;
    this.type = type;
    this.initial = initial;
    this.allowed = allowed;
  }

  /** A table of {@code thing}s created in one of {@code initial}. */
  @SafeVarargs
  static <S extends Enum<S>> TransitionTable<S> of(String thing, Class<S> type, S... initial) {
    Set<S> created = EnumSet.noneOf(type);
    created.addAll(List.of(initial));
    return new TransitionTable<>(thing, type, created, new EnumMap<>(type));
  }

  /** Declares the moves from {@code from} to each of {@code to}. */
  @SafeVarargs
  final TransitionTable<S> allow(S from, S... to) {
    allowed.computeIfAbsent(from, s -> EnumSet.noneOf(type)).addAll(List.of(to));
    return this;
  }

  boolean isAllowed(S from, S to) {
    return from == to || allowed.getOrDefault(from, Set.of()).contains(to);
  }

  /** Whether {@code from->to} (or {@code new->to}) is declared, by name. */
  boolean isAllowed(String from, String to) {
    S next = Enum.valueOf(type, to);
    return NEW.equals(from) ? initial.contains(next) : isAllowed(Enum.valueOf(type, from), next);
  }

  /**
   * Refuses a change the table does not declare: it is an engine bug, and the command that led to
   * it is refused rather than a state stored that no rule expects.
   */
  S check(S from, S to, Object which) {
    if (!isAllowed(from, to)) {
      throw new UndeclaredTransition(
          thing + " " + which + " cannot move from " + from + " to " + to + ": not declared");
    }
    return to;
  }

  /** The declared changes as {@code from->to} strings, creations as {@code new->to}. */
  Set<String> declared() {
    Set<String> all = new TreeSet<>();
    initial.forEach(to -> all.add(NEW + "->" + to));
    allowed.forEach((from, tos) -> tos.forEach(to -> all.add(from + "->" + to)));
    return all;
  }
}
