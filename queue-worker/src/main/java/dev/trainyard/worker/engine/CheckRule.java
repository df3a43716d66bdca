package dev.trainyard.worker.engine;

import dev.trainyard.common.command.CommitState;
import dev.trainyard.common.command.RequiredCheck;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Which reported contexts decide a test run (API.md §3 {@code requiredStatuses}, §6 "Which checks
 * must pass"), in the order they apply:
 *
 * <ol>
 *   <li>{@code requiredStatuses} names checks: exactly those ({@link Named}).
 *   <li>{@code requiredStatuses} is {@code []}: every reported context, none pending ({@link
 *       Reported} without settling).
 *   <li>The host declares required checks (GitHub protection and rulesets): exactly those; none
 *       declared: every reported context, none pending; unreadable: never green ({@link Unknown}),
 *       the PRs wait with the reason.
 *   <li>The host declares nothing (plain git): every reported context, none pending, and no new
 *       context within the settle time after the last one concluded ({@link Reported} with {@code
 *       settle}).
 * </ol>
 */
public sealed interface CheckRule {

  /** Exactly these checks must succeed, whatever else reports. */
  record Named(List<RequiredCheck> checks) implements CheckRule {}

  /**
   * Every reported context must succeed, at least one must have reported, none may be pending, and
   * {@code settle} must have passed since the last one concluded.
   */
  record Reported(Duration settle) implements CheckRule {}

  /** The host's required checks could not be read: no run goes green until they are. */
  record Unknown() implements CheckRule {}

  /** The rule of {@code state}'s queue; {@code settle} is {@code TRAINYARD_STATUS_SETTLE}. */
  static CheckRule of(QueueAggregate state, Duration settle) {
    List<String> override = state.settings().requiredStatuses();
    if (override != null) {
      return override.isEmpty()
          ? new Reported(Duration.ZERO)
          : new Named(override.stream().map(RequiredCheck::named).toList());
    }
    RequiredChecks declared = state.requiredChecks();
    if (declared == null) {
      return new Reported(settle);
    }
    if (!declared.readable()) {
      return new Unknown();
    }
    return declared.checks().isEmpty() ? new Reported(Duration.ZERO) : new Named(declared.checks());
  }

  /**
   * The required checks that have not succeeded on {@code run}'s head, for the message of a run
   * that timed out; empty unless the queue names its checks. Settles nothing, so needs no settle.
   */
  static List<RequiredCheck> missing(QueueAggregate state, TestRun run) {
    if (!(of(state, Duration.ZERO) instanceof Named named)) {
      return List.of();
    }
    return named.checks().stream()
        .filter(
            check ->
                report(run.statuses(), check)
                    .filter(s -> s.state() == CommitState.SUCCESS)
                    .isEmpty())
        .toList();
  }

  /**
   * The report that counts for {@code check}: its app's, for a check bound to one; otherwise, of
   * the reporters of that name, a red one first (any source failing fails it), then a green one.
   */
  static Optional<RunStatus> report(List<RunStatus> statuses, RequiredCheck check) {
    List<RunStatus> matching =
        statuses.stream().filter(s -> check.matches(s.context(), s.appId())).toList();
    return matching.stream()
        .filter(s -> s.state().isRed())
        .findFirst()
        .or(() -> matching.stream().filter(s -> s.state() == CommitState.SUCCESS).findFirst())
        .or(() -> matching.stream().findFirst());
  }

  /** When the last of {@code statuses} concluded (pending ones are not conclusions). */
  static Optional<Instant> lastConclusion(List<RunStatus> statuses) {
    return statuses.stream()
        .filter(s -> s.state() != CommitState.PENDING)
        .map(RunStatus::at)
        .max(Instant::compareTo);
  }
}
