package dev.trainyard.worker.scm.git;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import dev.trainyard.common.git.GitRemote;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.common.webhook.SecretBox;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.bson.Document;
import org.bson.conversions.Bson;

/**
 * The remote repositories organizations registered ({@code /v1/scm/git/setRemote}), read from the
 * store with their credentials opened. A lookup is remembered for {@link #FRESH}, and what the
 * poller read ahead for a round's repositories ({@link #readAhead}) until its next round, at most
 * {@link #READ_AHEAD}: a changed registration may take that long to be seen, unless its repository
 * is notified ({@link #notified}).
 */
public final class GitRemotes {
  static final Duration FRESH = Duration.ofSeconds(1);

  /**
   * How long a registration read ahead is remembered when no round reads it again: longer than a
   * round and its interval (5 s), so the round's later repositories and the effects between two
   * rounds find it, and the next round's read replaces it.
   */
  static final Duration READ_AHEAD = Duration.ofSeconds(30);

  /** No registrations anywhere (no store, as in unit tests). */
  public static final GitRemotes NONE = new GitRemotes(null, null);

  private final MongoCollection<Document> remotes;
  private final SecretBox secrets;
  private final InstantSource clock;
  private final Map<String, Seen> seen = new ConcurrentHashMap<>();

  /**
   * A registration (or its absence) read at {@code readAt}, kept until {@code until}; {@code
   * notifiedAt}: when a notify of its repository last arrived after that read (null: none).
   */
  private record Seen(
      Optional<RemoteAccess> access, Instant readAt, Instant until, Instant notifiedAt) {
    /** What a notify at {@code at} leaves: kept no longer than {@link #FRESH} past its read. */
    Seen notified(Instant at) {
      Instant fresh = readAt.plus(FRESH);
      return new Seen(access, readAt, until.isBefore(fresh) ? until : fresh, at);
    }

    boolean notifiedSince(Instant at) {
      return notifiedAt != null && !notifiedAt.isBefore(at);
    }
  }

  /**
   * @param secrets opens the sealed credentials ({@code TRAINYARD_WEBHOOK_KEY}); null when the
   *     worker has no key, and then a remote with credentials cannot be reached
   */
  public GitRemotes(MongoCollection<Document> remotes, SecretBox secrets) {
    this(remotes, secrets, InstantSource.system());
  }

  GitRemotes(MongoCollection<Document> remotes, SecretBox secrets, InstantSource clock) {
    this.remotes = remotes;
    this.secrets = secrets;
    this.clock = clock;
  }

  /**
   * The remote {@code repo} is registered at, if any.
   *
   * @throws IllegalStateException when its credentials cannot be opened (no or another key)
   */
  Optional<RemoteAccess> find(OrgRepo repo) {
    if (remotes == null) {
      return Optional.empty();
    }
    String id = GitRemote.id(repo);
    Instant now = clock.instant();
    Seen last = seen.get(id);
    if (last != null && last.until().isAfter(now)) {
      return last.access();
    }
    Optional<RemoteAccess> access = opened(remotes.find(Filters.eq("_id", id)).first());
    seen.put(id, new Seen(access, now, now.plus(FRESH), null));
    return access;
  }

  /**
   * Reads the registrations of {@code repos} in one query and remembers each, or its absence, until
   * the next round reads it again (at most {@link #READ_AHEAD}): the poller reads a round's
   * repositories one after another, and one store read per repository and round queued behind the
   * commands' writes (a round of 100 repositories spent most of its time waiting on them). One
   * whose credentials cannot be opened is left for {@link #find} to refuse when asked; one notified
   * while the query ran keeps what the notify left, so the read that preceded it never hides it.
   */
  void readAhead(Collection<OrgRepo> repos) {
    if (remotes == null || repos.isEmpty()) {
      return;
    }
    Instant started = clock.instant();
    seen.values().removeIf(s -> !s.until().isAfter(started)); // repositories no round reads now
    Map<String, Document> stored = new HashMap<>();
    for (OrgRepo repo : repos) {
      stored.put(GitRemote.id(repo), null);
    }
    remotes
        .find(Filters.in("_id", stored.keySet()))
        .forEach(d -> stored.put(d.getString("_id"), d));
    Instant until = started.plus(READ_AHEAD);
    stored.forEach(
        (id, doc) ->
            seen.compute(
                id,
                (key, last) -> {
                  if (last != null && last.notifiedSince(started)) {
                    return last;
                  }
                  try {
                    return new Seen(opened(doc), started, until, null);
                  } catch (RuntimeException unopened) {
                    return null;
                  }
                }));
  }

  /**
   * A notify of {@code repo}: its registration may have just been set or fixed, so the next {@link
   * #find} reads the store unless it did within {@link #FRESH} (a burst of deliveries reads it once
   * a second at most, as before any read-ahead).
   */
  void notified(OrgRepo repo) {
    Instant now = clock.instant();
    seen.compute(
        GitRemote.id(repo),
        (id, last) ->
            last == null ? new Seen(Optional.empty(), now, now, now) : last.notified(now));
  }

  private Optional<RemoteAccess> opened(Document doc) {
    return Optional.ofNullable(doc).map(d -> open(Json.mapper().convertValue(d, GitRemote.class)));
  }

  /**
   * The host key of {@code repo}'s registration at {@code access}: read from the store at every
   * connection, and the first key seen recorded only while the registration is still the one the
   * mirror was built for and has none (two workers racing agree on whichever was stored first).
   */
  HostKeys hostKeys(OrgRepo repo, RemoteAccess access) {
    if (remotes == null) {
      return HostKeys.NONE;
    }
    Bson registration =
        Filters.and(Filters.eq("_id", GitRemote.id(repo)), Filters.eq("url", access.url()));
    return seen -> {
      remotes.updateOne(
          Filters.and(registration, Filters.eq("hostKey", null)), Updates.set("hostKey", seen));
      Document doc = remotes.find(registration).first();
      return doc == null ? null : doc.getString("hostKey");
    };
  }

  private RemoteAccess open(GitRemote remote) {
    return new RemoteAccess(
        remote.url(),
        remote.username(),
        unseal(remote.password(), GitRemote.place(remote.orgRepo(), "password")),
        unseal(remote.privateKey(), GitRemote.place(remote.orgRepo(), "privateKey")),
        remote.updatedAt());
  }

  private String unseal(String sealed, SecretBox.Place place) {
    if (sealed == null) {
      return null;
    }
    if (secrets == null) {
      throw new IllegalStateException(
          "the remote's credentials cannot be opened: TRAINYARD_WEBHOOK_KEY is not set on the"
              + " worker");
    }
    return secrets.open(sealed, place);
  }
}
