package dev.trainyard.worker.effects;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The effects this instance is carrying out or has just carried out, per run: one effect per run at
 * a time (a branch is never deleted while it is still being built), and a finished effect is not
 * repeated until its result has had {@code patience} to come back as a command.
 */
final class InFlight {
  private record Attempt(String effect, Instant startedAt, boolean done) {}

  private final Map<String, Attempt> attempts = new ConcurrentHashMap<>();
  private final Duration patience;

  InFlight(Duration patience) {
    this.patience = patience;
  }

  /** Claims the run for {@code effect} unless an attempt is running or recently finished. */
  synchronized boolean claim(String runKey, String effect, Instant now) {
    Attempt last = attempts.get(runKey);
    if (last != null
        && (!last.done()
            || (last.effect().equals(effect) && last.startedAt().plus(patience).isAfter(now)))) {
      return false;
    }
    attempts.put(runKey, new Attempt(effect, now, false));
    return true;
  }

  synchronized void finished(String runKey) {
    attempts.computeIfPresent(runKey, (k, a) -> new Attempt(a.effect(), a.startedAt(), true));
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
                    && e.getValue().done()
                    && !stillWanted.contains(e.getKey()));
  }
}
