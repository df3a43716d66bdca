package dev.trainyard.gateway.ui;

import dev.trainyard.gateway.auth.Sessions;
import dev.trainyard.gateway.http.ApiException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The live-update streams ({@code /ui/events}) open on this replica: at most {@code perSession} for
 * one session and {@code perOrg} for one organization (each stream holds a connection and a
 * subscription as long as its page is open), past which a stream is refused with 429. The streams
 * of one session share one check that it still stands, asked at most once per {@link #CHECKED_FOR},
 * so many open tabs cost the store one read a period, not one each.
 */
final class LiveStreams {
  /** How long one answer to "is this session still signed in?" serves its streams. */
  static final Duration CHECKED_FOR = Duration.ofSeconds(10);

  /** What a refused stream's {@code Retry-After} says: about when another page closes. */
  static final long RETRY_AFTER_SECONDS = 30;

  private final int perSession;
  private final int perOrg;
  private final InstantSource clock;
  private final Map<String, Shared> sessions = new HashMap<>();
  private final Map<String, Integer> orgs = new HashMap<>();

  /** What a session's streams share: their count and the last answer to the check. */
  private static final class Shared {
    int streams;
    Mono<Boolean> alive;
    long checkedAtMillis;
  }

  LiveStreams(int perSession, int perOrg, InstantSource clock) {
    this.perSession = perSession;
    this.perOrg = perOrg;
    this.clock = clock;
  }

  /** One open stream: its session's shared check, and {@link #close} when it ends. */
  final class Stream {
    private final Sessions.Session session;
    private final String org;
    private boolean closed;

    private Stream(Sessions.Session session, String org) {
      this.session = session;
      this.org = org;
    }

    /** Whether the session still stands, answered by {@code check} at most once a period. */
    Mono<Boolean> alive(Function<Sessions.Session, Mono<Boolean>> check) {
      synchronized (LiveStreams.this) {
        Shared shared = sessions.get(session.idHash());
        long now = clock.millis();
        if (shared.alive == null || now - shared.checkedAtMillis >= CHECKED_FOR.toMillis()) {
          shared.alive = check.apply(session).cache();
          shared.checkedAtMillis = now;
        }
        return shared.alive;
      }
    }

    void close() {
      synchronized (LiveStreams.this) {
        if (closed) {
          return;
        }
        closed = true;
        Shared shared = sessions.get(session.idHash());
        if (--shared.streams == 0) {
          sessions.remove(session.idHash());
        }
        orgs.computeIfPresent(org, (o, n) -> n == 1 ? null : n - 1);
      }
    }
  }

  /**
   * A place for one more stream of {@code session} showing {@code org}.
   *
   * @throws ApiException 429 when the session or the organization has all the streams it may
   */
  synchronized Stream open(Sessions.Session session, String org) {
    check(session, org);
    sessions.computeIfAbsent(session.idHash(), id -> new Shared()).streams++;
    orgs.merge(org, 1, Integer::sum);
    return new Stream(session, org);
  }

  /**
   * Whether one more stream would fit, without taking its place (an answer's status is decided
   * before its body, which takes the place, is subscribed).
   *
   * @throws ApiException 429 when the session or the organization has all the streams it may
   */
  synchronized void check(Sessions.Session session, String org) {
    Shared shared = sessions.get(session.idHash());
    if (shared != null && shared.streams >= perSession) {
      throw refused("this session has " + perSession + " live pages open already");
    }
    if (orgs.getOrDefault(org, 0) >= perOrg) {
      throw refused("organization " + org + " has " + perOrg + " live pages open already");
    }
  }

  private static ApiException refused(String why) {
    return ApiException.tooManyRequests(
        why + " on this server; close one, or this page updates when reloaded",
        RETRY_AFTER_SECONDS);
  }

  /** Streams open now for {@code org}. */
  synchronized int open(String org) {
    return orgs.getOrDefault(org, 0);
  }
}
