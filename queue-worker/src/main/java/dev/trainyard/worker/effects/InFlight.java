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
 * without a result of its own may be tried again after {@link #AFTER_FAILURE}, twice as long after
 * each failure in a row, up to {@link #MAX_BACKOFF}: a host that is down or limiting trainyard is
 * not called every two seconds.
 */
final class InFlight {
  /** How long a failed effect waits before it is tried again. */
  static final Duration AFTER_FAILURE = Duration.ofSeconds(2);

  /** The longest a failing effect waits between attempts. */
  static final Duration MAX_BACKOFF = Duration.ofMinutes(5);

  /**
   * An attempt; {@code repeatAfter} is null while it runs; {@code failures}: how many attempts of
   * this effect in a row ended without a result.
   */
  private record Attempt(String effect, Instant repeatAfter, int failures) {}

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
    int failures = last != null && last.effect().equals(effect) ? last.failures() : 0;
    attempts.put(runKey, new Attempt(effect, null, failures));
    return true;
  }

  /** The attempt sent its result at {@code now}: it is repeated only if none comes back. */
  synchronized void finished(String runKey, Instant now) {
    attempts.computeIfPresent(runKey, (k, a) -> new Attempt(a.effect(), now.plus(patience), 0));
  }

  /**
   * The attempt ended at {@code now} without a result of its own (it failed, or it found and
   * recorded another run's lost landing): nothing is coming back, so it is tried again after the
   * backoff of its failures in a row; after the longest one at once when the host {@code refused}
   * it as it will again until a person acts (GitHub asks integrations not to repeat such calls).
   */
  synchronized void noResult(String runKey, Instant now, boolean refused) {
    attempts.computeIfPresent(
        runKey,
        (k, a) -> {
          Duration wait = refused ? MAX_BACKOFF : backoff(a.failures() + 1);
          return new Attempt(a.effect(), now.plus(wait), a.failures() + 1);
        });
  }

  /** The wait after {@code failures} failures in a row: 2 s, 4 s, 8 s, … up to five minutes. */
  static Duration backoff(int failures) {
    Duration wait = AFTER_FAILURE;
    for (int i = 1; i < failures && wait.compareTo(MAX_BACKOFF) < 0; i++) {
      wait = wait.multipliedBy(2);
    }
    return wait.compareTo(MAX_BACKOFF) < 0 ? wait : MAX_BACKOFF;
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
