package dev.trainyard.cli.http;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * When a request without a definitive answer is sent again: after the server's {@code Retry-After}
 * when it gave one (API.md: 429 and 503 carry it), else after a backoff doubling from 1 s to 10 s;
 * never past the budget, so a script learns within it that the server is not there.
 *
 * @param budget the longest a command spends retrying one request
 */
public record Retrying(Duration budget) {
  /**
   * The answers that are not definitive: a body that did not arrive in time, overloaded,
   * unavailable, or a proxy without a backend.
   */
  public static final Set<Integer> RETRIED = Set.of(408, 429, 502, 503, 504);

  /** What the gateway answers while a key's first request is still being answered (API.md). */
  private static final String STILL_ANSWERED = "still being answered";

  private static final Duration FIRST = Duration.ofSeconds(1);
  private static final Duration LONGEST_BACKOFF = Duration.ofSeconds(10);

  /**
   * The pause before the next attempt after attempt {@code attempt} (from 1) went unanswered, with
   * {@code spent} spent since the first; empty when the budget does not allow it.
   */
  public Optional<Duration> pause(int attempt, Optional<Duration> retryAfter, Duration spent) {
    Duration pause = retryAfter.orElseGet(() -> backoff(attempt));
    return spent.plus(pause).compareTo(budget) > 0 ? Optional.empty() : Optional.of(pause);
  }

  /**
   * Whether an answer of {@code status} is worth sending again: one of {@link #RETRIED}, or, for a
   * request under an {@code Idempotency-Key}, the 409 saying the key's first attempt (one whose
   * answer was lost) is still being answered.
   */
  public static boolean again(int status, String body, boolean keyed) {
    return RETRIED.contains(status)
        || (keyed && status == 409 && body != null && body.contains(STILL_ANSWERED));
  }

  static Duration backoff(int attempt) {
    Duration pause = FIRST.multipliedBy(1L << Math.min(attempt - 1, 10));
    return pause.compareTo(LONGEST_BACKOFF) > 0 ? LONGEST_BACKOFF : pause;
  }

  /**
   * A {@code Retry-After} of whole seconds (the form the API sends; at least 1, so a server
   * answering 0 is not hammered); anything else is none.
   */
  public static Optional<Duration> retryAfter(String header) {
    if (header == null || !header.strip().matches("\\d{1,6}")) {
      return Optional.empty();
    }
    return Optional.of(Duration.ofSeconds(Math.max(1, Long.parseLong(header.strip()))));
  }
}
