package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.MergeWindow;
import dev.trainyard.common.queue.QueueFreeze;
import dev.trainyard.worker.engine.QueueEvent.LandingHoldChanged;
import dev.trainyard.worker.engine.QueueEvent.QueueUnfrozen;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Whether the queue may land now (API.md §3 {@code mergeWindows}, {@code freeze}): not while
 * frozen, and, when the queue has merge windows, only inside one. Runs go on testing either way;
 * passed runs wait. The gate is state ({@link QueueAggregate#landingHold()}), moved by the planner
 * with the engine's clock, so effects derived from a stored state never land outside a window, and
 * a {@code Tick} at each window's start and end (and a freeze's end) moves it on time.
 */
final class FollowLandingGate implements PlanningRule {
  @Override
  public List<QueueEvent> decide(QueueAggregate state, CommandContext ctx) {
    return plan(state, ctx.now());
  }

  /** A freeze that ended, or the gate's new hold when it differs from the state's. */
  static List<QueueEvent> plan(QueueAggregate state, Instant now) {
    QueueFreeze freeze = state.freeze();
    if (freeze != null && !freeze.holdsAt(now)) {
      return List.of(new QueueUnfrozen(true, now));
    }
    String hold = hold(state, now);
    return Objects.equals(hold, state.landingHold())
        ? List.of()
        : List.of(new LandingHoldChanged(hold));
  }

  /** Why nothing may land at {@code now}, or null when landing may happen. */
  static String hold(QueueAggregate state, Instant now) {
    QueueFreeze freeze = state.freeze();
    if (freeze != null) {
      return "the queue is frozen"
          + (freeze.until() == null ? "" : " until " + freeze.until())
          + ": "
          + freeze.reason();
    }
    List<MergeWindow> windows = state.settings().mergeWindows();
    if (!MergeWindow.anyOpen(windows, now)) {
      return "outside every merge window"
          + MergeWindow.nextOpening(windows, now).map(at -> "; the next opens at " + at).orElse("");
    }
    return null;
  }

  /** When the gate may change next: a freeze's end, or a window's start or end. */
  static Optional<Instant> nextChange(QueueAggregate state, Instant now) {
    Optional<Instant> thaw = Optional.ofNullable(state.freeze()).map(QueueFreeze::until);
    return Stream.of(thaw, MergeWindow.nextChange(state.settings().mergeWindows(), now))
        .flatMap(Optional::stream)
        .min(Instant::compareTo);
  }
}
