package dev.trainyard.gateway.limits;

import dev.trainyard.common.limits.TokenBucket;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Attempts per key (a client address, the first characters of a typed token) on this replica: a
 * bucket of {@code burst} attempts refilled at {@code perMinute}. It remembers at most {@code
 * maxKeys} keys, the least recently tried forgotten first, so someone trying from many addresses
 * costs the gateway a bounded map, never its memory; a forgotten key starts again full. The count
 * is per replica, not shared through the store: a sign-in is rare enough for a person that N
 * replicas' allowance still stops guessing at any useful rate, and the store is spared a write for
 * every anonymous request.
 */
public final class AttemptThrottle {
  private final double perSecond;
  private final double burst;
  private final InstantSource clock;
  private final Map<String, TokenBucket> buckets;

  public AttemptThrottle(int perMinute, int burst, int maxKeys, InstantSource clock) {
    this.perSecond = perMinute / 60.0;
    this.burst = burst;
    this.clock = clock;
    this.buckets =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, TokenBucket> eldest) {
            return size() > maxKeys;
          }
        };
  }

  /** Counts one attempt for {@code key}: 0 when it may go on, else the seconds to wait (≥ 1). */
  public synchronized long attempt(String key) {
    long now = clock.millis();
    TokenBucket bucket = buckets.getOrDefault(key, TokenBucket.full(burst, now));
    TokenBucket.Take take = bucket.take(now, perSecond, burst, 1);
    buckets.put(key, take.after());
    return take.granted() == 1 ? 0 : take.retryAfterSeconds();
  }

  /** Keys remembered now. */
  public synchronized int keys() {
    return buckets.size();
  }
}
