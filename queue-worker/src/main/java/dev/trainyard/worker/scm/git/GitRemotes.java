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
 * {@link #READ_AHEAD}: a changed registration may take that long to be seen.
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
  private final Map<String, Seen> seen = new ConcurrentHashMap<>();

  private record Seen(Optional<RemoteAccess> access, Instant until) {}

  /**
   * @param secrets opens the sealed credentials ({@code TRAINYARD_WEBHOOK_KEY}); null when the
   *     worker has no key, and then a remote with credentials cannot be reached
   */
  public GitRemotes(MongoCollection<Document> remotes, SecretBox secrets) {
    this.remotes = remotes;
    this.secrets = secrets;
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
    Instant now = Instant.now();
    Seen last = seen.get(id);
    if (last != null && last.until().isAfter(now)) {
      return last.access();
    }
    Optional<RemoteAccess> access = opened(remotes.find(Filters.eq("_id", id)).first());
    seen.put(id, new Seen(access, now.plus(FRESH)));
    return access;
  }

  /**
   * Reads the registrations of {@code repos} in one query and remembers each, or its absence, as
   * {@link #find} would: the poller reads a round's repositories one after another, and one store
   * read per repository and round queued behind the commands' writes (a round of 100 repositories
   * spent most of its time waiting on them). One whose credentials cannot be opened is left for
   * {@link #find} to refuse when asked.
   */
  void readAhead(Collection<OrgRepo> repos) {
    if (remotes == null || repos.isEmpty()) {
      return;
    }
    Map<String, Document> stored = new HashMap<>();
    for (OrgRepo repo : repos) {
      stored.put(GitRemote.id(repo), null);
    }
    remotes
        .find(Filters.in("_id", stored.keySet()))
        .forEach(d -> stored.put(d.getString("_id"), d));
    Instant until = Instant.now().plus(READ_AHEAD);
    stored.forEach(
        (id, doc) -> {
          try {
            seen.put(id, new Seen(opened(doc), until));
          } catch (RuntimeException unopened) {
            seen.remove(id);
          }
        });
  }

  /** The next {@link #find} of {@code repo} reads the store. */
  void forget(OrgRepo repo) {
    seen.remove(GitRemote.id(repo));
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
