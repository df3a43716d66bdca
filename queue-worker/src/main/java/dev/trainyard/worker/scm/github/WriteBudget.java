package dev.trainyard.worker.scm.github;

import dev.trainyard.common.limits.TokenBucket;
import dev.trainyard.common.queue.TestBranches;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;

/**
 * This worker's GitHub writes per App installation, kept under GitHub's secondary limit on
 * content-creating requests (its documentation: no more than 80 a minute and 500 an hour), with the
 * landing of a tested run first. Each write takes a token from a minute bucket and from an hour
 * bucket of its installation:
 *
 * <ul>
 *   <li>{@link Lane#LANDING} (moving the target, the merge endpoint) always goes, and its tokens
 *       are owed by what follows;
 *   <li>{@link Lane#TESTING} (building and deleting test branches) goes while a token is left;
 *   <li>{@link Lane#SHOWING} (check runs, labels, comments, draft PRs) leaves the last quarter of
 *       each bucket to the other two.
 * </ul>
 *
 * A write refused here fails with {@link Spent}, which its caller retries later, as after a rate
 * limit. Several workers each keep their own budget: divide GitHub's limits by their number.
 */
final class WriteBudget {
  /** How important a write is to the queue: landing before testing before showing. */
  enum Lane {
    LANDING,
    TESTING,
    SHOWING
  }

  /** The budget of the installation is spent for {@code lane}; try again after {@code retry}. */
  static final class Spent extends UncheckedIOException {
    private final Duration retry;

    Spent(long installation, Lane lane, Duration retry) {
      super(
          new IOException(
              "this worker's GitHub write budget for installation "
                  + installation
                  + " is spent for "
                  + lane.name().toLowerCase(java.util.Locale.ROOT)
                  + " writes; tried again in "
                  + retry.toSeconds()
                  + " s"));
      this.retry = retry;
    }

    Duration retry() {
      return retry;
    }
  }

  private record Buckets(TokenBucket minute, TokenBucket hour) {}

  private final int perMinute;
  private final int perHour;
  private final InstantSource clock;
  private final Map<Long, Buckets> installations = new HashMap<>();

  WriteBudget(int perMinute, int perHour, InstantSource clock) {
    this.perMinute = perMinute;
    this.perHour = perHour;
    this.clock = clock;
  }

  /**
   * The lane of a write: {@code PUT .../merge} and moving a branch that is not trainyard's own
   * land; creating, moving or deleting trainyard's branches and merging into them test; anything
   * else shows.
   */
  static Lane lane(String method, String path) {
    String refs = "/git/refs/heads/";
    if (method.equals("PUT") && path.matches(".*/pulls/\\d+/merge")) {
      return Lane.LANDING;
    }
    int at = path.indexOf(refs);
    if (at >= 0) {
      String branch =
          java.net.URLDecoder.decode(
              path.substring(at + refs.length()), java.nio.charset.StandardCharsets.UTF_8);
      return method.equals("PATCH") && !TestBranches.isOwn(branch) ? Lane.LANDING : Lane.TESTING;
    }
    return path.endsWith("/merges") || path.endsWith("/git/refs") ? Lane.TESTING : Lane.SHOWING;
  }

  /** Throws {@link Spent} when a write of {@code lane} would be refused now; takes nothing. */
  synchronized void check(long installation, Lane lane) {
    settle(installation, lane, false);
  }

  /** Takes one write of {@code lane} for {@code installation}, or throws {@link Spent}. */
  synchronized void take(long installation, Lane lane) {
    settle(installation, lane, true);
  }

  private void settle(long installation, Lane lane, boolean taking) {
    long now = clock.millis();
    Buckets held = installations.get(installation);
    TokenBucket minute =
        held == null
            ? TokenBucket.full(perMinute, now)
            : held.minute().refill(now, perMinute / 60.0, perMinute);
    TokenBucket hour =
        held == null
            ? TokenBucket.full(perHour, now)
            : held.hour().refill(now, perHour / 3600.0, perHour);
    double keepMinute = keep(lane, perMinute);
    double keepHour = keep(lane, perHour);
    if (minute.tokens() < keepMinute || hour.tokens() < keepHour) {
      installations.put(installation, new Buckets(minute, hour));
      double minuteWait = (keepMinute - minute.tokens()) * 60.0 / perMinute;
      double hourWait = (keepHour - hour.tokens()) * 3600.0 / perHour;
      throw new Spent(
          installation,
          lane,
          Duration.ofSeconds((long) Math.ceil(Math.max(1, Math.max(minuteWait, hourWait)))));
    }
    int taken = taking ? 1 : 0;
    installations.put(
        installation,
        new Buckets(
            new TokenBucket(minute.tokens() - taken, minute.atMillis()),
            new TokenBucket(hour.tokens() - taken, hour.atMillis())));
  }

  /** The tokens a write of {@code lane} must find in a bucket of {@code size}. */
  private static double keep(Lane lane, int size) {
    return switch (lane) {
      case LANDING -> Double.NEGATIVE_INFINITY;
      case TESTING -> 1;
      case SHOWING -> 1 + size / 4.0;
    };
  }
}
