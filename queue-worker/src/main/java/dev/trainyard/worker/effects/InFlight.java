package dev.trainyard.worker.effects;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The effects this instance is carrying out or has just carried out, per run: one effect per run at
 * a time (a branch is never deleted while it is still being built). A finished effect is not
 * repeated until its result has had {@code patience} to come back as a command; one that ended
 * without a result of its own may be tried again after {@link #AFTER_FAILURE}.
 */
final class InFlight {
  /** How long a failed effect waits before it is tried again. */
  static final Duration AFTER_FAILURE = Duration.ofSeconds(2);

  /** An attempt; {@code repeatAfter} is null while it runs. */
  private record Attempt(String effect, Instant repeatAfter) {}

  private final Map<String, Attempt> attempts = new ConcurrentHashMap<>();
  private final Duration patience;

  InFlight(Duration patience) {
    this.patience = patience;
  }

  /** Claims the run for {@code effect} unless an attempt is running or may not be repeated yet. */
  synchronized boolean claim(String runKey, String effect, Instant now) {
    Attempt last = attempts.get(runKey);
    if (last != null
        && (last.repeatAfter() == null
            || (last.effect().equals(effect) && last.repeatAfter().isAfter(now)))) {
      return false;
    }
    attempts.put(runKey, new Attempt(effect, null));
    return true;
  }

  /** The attempt sent its result at {@code now}: it is repeated only if none comes back. */
  synchronized void finished(String runKey, Instant now) {
    ended(runKey, now.plus(patience));
  }

  /**
   * The attempt ended at {@code now} without a result of its own (it failed, or it found and
   * recorded another run's lost landing): nothing is coming back, so it is tried again soon.
   */
  synchronized void noResult(String runKey, Instant now) {
    ended(runKey, now.plus(AFTER_FAILURE));
  }

  private void ended(String runKey, Instant repeatAfter) {
    attempts.computeIfPresent(runKey, (k, a) -> new Attempt(a.effect(), repeatAfter));
  }

  /**
   * Forgets finished attempts of runs whose key starts with {@code prefix} and asks for nothing.
   */
  synchronized void forgetFinished(String prefix, Set<String> stillWanted) {
    attempts
        .entrySet()
        .removeIf(
            e ->
                e.getKey().startsWith(prefix)
                    && e.getValue().repeatAfter() != null
                    && !stillWanted.contains(e.getKey()));
  }
}
