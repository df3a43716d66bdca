package dev.trainyard.common.limits;

/**
 * The arithmetic of a token bucket, kept pure so a table test covers it: {@code ratePerSecond}
 * tokens flow in every second up to {@code burst}; a taker takes a slice of up to {@code slice}
 * whole tokens at a time (an organization's requests across gateway replicas, a worker's GitHub
 * writes).
 *
 * @param tokens what the bucket held at {@code atMillis}
 * @param atMillis when it was last filled (epoch milliseconds)
 */
public record TokenBucket(double tokens, long atMillis) {

  /** What a take left behind: the tokens granted (0 when empty) and, if none, when to retry. */
  public record Take(int granted, TokenBucket after, long retryAfterSeconds) {}

  public static TokenBucket full(double burst, long nowMillis) {
    return new TokenBucket(burst, nowMillis);
  }

  /** Fills the bucket for the time since {@link #atMillis}; a clock behind it adds nothing. */
  public TokenBucket refill(long nowMillis, double ratePerSecond, double burst) {
    long elapsed = Math.max(0, nowMillis - atMillis);
    double filled = Math.min(burst, tokens + elapsed * ratePerSecond / 1000.0);
    return new TokenBucket(filled, Math.max(nowMillis, atMillis));
  }

  /** Takes up to {@code slice} whole tokens after filling; none when less than one is there. */
  public Take take(long nowMillis, double ratePerSecond, double burst, int slice) {
    TokenBucket filled = refill(nowMillis, ratePerSecond, burst);
    int granted = (int) Math.min(slice, Math.floor(filled.tokens));
    if (granted >= 1) {
      return new Take(granted, new TokenBucket(filled.tokens - granted, filled.atMillis), 0);
    }
    long wait = (long) Math.ceil((1 - filled.tokens) / ratePerSecond);
    return new Take(0, filled, Math.max(1, wait));
  }
}
