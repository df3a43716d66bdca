package dev.trainyard.common.queue;

import java.time.Instant;

/**
 * A queue frozen by {@code freezeQueue} (API.md §3 {@code freeze}): nothing lands, testing goes on,
 * until {@code unfreezeQueue} or {@code until} (null: until unfrozen).
 */
public record QueueFreeze(String reason, Instant until) {
  /** The longest reason kept, in characters. */
  public static final int MAX_REASON = 1024;

  /** Whether the freeze still holds at {@code now}. */
  public boolean holdsAt(Instant now) {
    return until == null || now.isBefore(until);
  }
}
