package dev.trainyard.gateway.ui;

import dev.trainyard.common.net.PathSegments;
import dev.trainyard.common.queue.QueueKey;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** The dashboard's own links and how it writes times (UTC) and durations. */
final class Links {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

  private Links() {}

  static String queue(QueueKey key) {
    return under("/ui/queues/", key);
  }

  static String pull(QueueKey key, long number) {
    return queue(key) + "/pulls/" + number;
  }

  /**
   * The PR on its source host, for a repository the GitHub App serves ({@code githubHost}); null
   * for a plain git server, which has no page of a PR.
   */
  static String onHost(QueueKey key, long number, String githubHost) {
    if (!key.repo().host().equalsIgnoreCase(githubHost)) {
      return null;
    }
    return "https://"
        + key.repo().host()
        + "/"
        + PathSegments.path(key.repo().owner(), key.repo().name())
        + "/pull/"
        + number;
  }

  /** Where a queue's and its PRs' forms are sent. */
  static String queueForm(QueueKey key) {
    return under("/ui/actions/queues/", key);
  }

  /** The unhealthy tests of a repository. */
  static String flakyTests(String host, String owner, String name) {
    return "/ui/flaky-tests/" + PathSegments.path(host, owner, name);
  }

  /** Where a repository's quarantine override is sent. */
  static String quarantineForm(String host, String owner, String name) {
    return "/ui/actions/flaky-tests/" + PathSegments.path(host, owner, name) + "/quarantine";
  }

  static String flakyTests(QueueKey key) {
    return flakyTests(key.repo().host(), key.repo().owner(), key.repo().name());
  }

  private static String under(String prefix, QueueKey key) {
    return prefix
        + PathSegments.path(key.repo().host(), key.repo().owner(), key.repo().name(), key.branch());
  }

  static String time(Instant at) {
    return at == null ? "" : TIME.format(at);
  }

  /** {@code 42 s}, {@code 3 min 5 s}, {@code 2 h 10 min}; empty for none. */
  static String duration(Duration d) {
    if (d == null) {
      return "";
    }
    long s = Math.max(0, d.toSeconds());
    if (s < 60) {
      return s + " s";
    }
    if (s < 3600) {
      return s / 60 + " min " + s % 60 + " s";
    }
    return s / 3600 + " h " + s % 3600 / 60 + " min";
  }
}
