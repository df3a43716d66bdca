package dev.trainyard.worker.scm.github;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import dev.trainyard.common.github.GithubInstallation;
import dev.trainyard.common.json.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.bson.Document;

/**
 * Which organization each GitHub App installation serves, as the gateway recorded it ({@code
 * bindGithubInstallation}, the {@code installation} webhook). A lookup is remembered for {@link
 * #FRESH}, so an unbinding or a suspension is seen within that.
 */
public class GithubBindings {
  static final Duration FRESH = Duration.ofSeconds(1);
  private final MongoCollection<Document> installations;
  private final Map<Long, Seen> seen = new ConcurrentHashMap<>();

  private record Seen(Optional<GithubInstallation> installation, Instant at) {}

  public GithubBindings(MongoCollection<Document> installations) {
    this.installations = installations;
  }

  /** What the store holds of installation {@code id}, if anything. */
  public Optional<GithubInstallation> find(long id) {
    Instant now = Instant.now();
    Seen last = seen.get(id);
    if (last != null && last.at().plus(FRESH).isAfter(now)) {
      return last.installation();
    }
    Optional<GithubInstallation> found =
        Optional.ofNullable(installations.find(Filters.eq("_id", id)).first())
            .map(d -> Json.mapper().convertValue(d, GithubInstallation.class));
    seen.put(id, new Seen(found, now));
    return found;
  }
}
