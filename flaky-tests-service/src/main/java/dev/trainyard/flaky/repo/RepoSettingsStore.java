package dev.trainyard.flaky.repo;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import dev.trainyard.flaky.owners.Codeowners;
import dev.trainyard.flaky.store.FlakyCollections;
import java.util.ArrayList;
import java.util.List;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.springframework.data.mongodb.core.MongoTemplate;

/** {@code flaky_repo_settings}: one document per (organization, repository). */
public class RepoSettingsStore {
  private final MongoTemplate mongo;
  private final ParsedCodeowners parsed = new ParsedCodeowners(Codeowners::parse);

  public RepoSettingsStore(MongoTemplate mongo) {
    this.mongo = mongo;
  }

  public RepoSettings get(String org, Repo repo) {
    Document doc = collection().find(Filters.eq("_id", id(org, repo))).first();
    if (doc == null) {
      return RepoSettings.defaults(repo);
    }
    return new RepoSettings(
        repo.key(),
        doc.getString("targetBranch"),
        Boolean.TRUE.equals(doc.getBoolean("autoQuarantine")),
        doc.getString("codeowners"));
  }

  /** Changes the given settings (null = unchanged). */
  public void update(String org, Repo repo, String targetBranch, Boolean autoQuarantine) {
    List<Bson> sets = new ArrayList<>();
    sets.add(Updates.set("org", org));
    sets.add(Updates.set("repo", repo.key()));
    if (targetBranch != null) {
      sets.add(Updates.set("targetBranch", targetBranch));
    }
    if (autoQuarantine != null) {
      sets.add(Updates.set("autoQuarantine", autoQuarantine));
    }
    collection()
        .updateOne(
            Filters.eq("_id", id(org, repo)),
            Updates.combine(sets),
            new UpdateOptions().upsert(true));
  }

  public void codeowners(String org, Repo repo, String text) {
    collection()
        .updateOne(
            Filters.eq("_id", id(org, repo)),
            Updates.combine(
                Updates.set("org", org),
                Updates.set("repo", repo.key()),
                Updates.set("codeowners", text)),
            new UpdateOptions().upsert(true));
  }

  /** The parsed CODEOWNERS of these settings (parsed once per repository and text, cached). */
  public Codeowners parsed(String org, RepoSettings settings) {
    if (settings.codeowners() == null) {
      return null;
    }
    return parsed.get(org + "/" + settings.repoKey(), settings.codeowners());
  }

  private static String id(String org, Repo repo) {
    return org + "/" + repo.key();
  }

  private MongoCollection<Document> collection() {
    return mongo.getCollection(FlakyCollections.REPO_SETTINGS);
  }
}
