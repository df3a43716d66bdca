package dev.trainyard.gateway.scm.github;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How many replies to {@code /trainyard} comments a gateway replica writes (API.md §6): at most
 * {@link #PER_PULL_REQUEST} on one PR and {@link #PER_COMMENTER} to one commenter in {@link
 * #WINDOW}, and {@link #PER_INSTALLATION} a minute on one installation, below GitHub's secondary
 * limit on content-creating requests (80 a minute). Commenting a wrong command again and again
 * cannot make trainyard spam a PR or spend the installation's writes the queues need.
 */
final class ReplyBudget {
  static final Duration WINDOW = Duration.ofHours(1);
  static final int PER_PULL_REQUEST = 5;
  static final int PER_COMMENTER = 10;
  static final int PER_INSTALLATION = 20;
  private static final Duration MINUTE = Duration.ofMinutes(1);
  private static final int MAX_KEYS = 10_000;

  private final InstantSource clock;
  private final Map<String, Deque<Instant>> taken =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Deque<Instant>> eldest) {
          return size() > MAX_KEYS;
        }
      };

  ReplyBudget(InstantSource clock) {
    this.clock = clock;
  }

  /**
   * Takes one reply to {@code login} on PR {@code number} of {@code repo} through installation
   * {@code installation}, if every bound allows it; false (nothing taken) otherwise.
   */
  synchronized boolean take(long installation, String repo, long number, String login) {
    Instant now = clock.instant();
    String pr = "pr " + repo.toLowerCase(java.util.Locale.ROOT) + "#" + number;
    String commenter = "login " + login.toLowerCase(java.util.Locale.ROOT);
    String app = "installation " + installation;
    if (used(pr, now, WINDOW) >= PER_PULL_REQUEST
        || used(commenter, now, WINDOW) >= PER_COMMENTER
        || used(app, now, MINUTE) >= PER_INSTALLATION) {
      return false;
    }
    for (String key : new String[] {pr, commenter, app}) {
      taken.computeIfAbsent(key, k -> new ArrayDeque<>()).addLast(now);
    }
    return true;
  }

  /** The replies under {@code key} within {@code window} before {@code now}; older ones dropped. */
  private int used(String key, Instant now, Duration window) {
    Deque<Instant> times = taken.get(key);
    if (times == null) {
      return 0;
    }
    while (!times.isEmpty() && !times.peekFirst().isAfter(now.minus(window))) {
      times.removeFirst();
    }
    return times.size();
  }
}
