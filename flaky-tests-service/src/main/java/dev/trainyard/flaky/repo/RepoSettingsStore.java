package dev.trainyard.flaky.repo;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.common.view.Collections;
import dev.trainyard.flaky.classify.TargetBranch;
import dev.trainyard.flaky.owners.Codeowners;
import dev.trainyard.flaky.store.FlakyCollections;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.springframework.data.mongodb.core.MongoTemplate;

/** {@code flaky_repo_settings}: one document per (organization, repository). */
public class RepoSettingsStore {
  /** The most queues whose target branches are read for one repository. */
  static final int MAX_QUEUES = 100;

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

  /**
   * The target branch of {@code repo} by its {@code settings}, {@code hostDefault} and the target
   * branches of the organization's merge queues on it ({@link RepoSettings#target}). The queues are
   * read from the queue worker's collection, as the gateway reads them: in a cluster no git folder
   * is mounted here, and the branch a queue merges into is the one its tests must stay green on.
   */
  public TargetBranch target(
      String org, Repo repo, RepoSettings settings, Optional<String> hostDefault) {
    if (settings.targetBranch() != null) {
      return settings.target(hostDefault, List.of());
    }
    List<String> queues = new ArrayList<>();
    mongo
        .getCollection(Collections.QUEUES)
        .find(Filters.and(Filters.regex("_id", queueIds(org, repo)), Filters.ne("view", null)))
        .projection(Projections.include("_id"))
        .limit(MAX_QUEUES)
        .forEach(doc -> queues.add(QueueKey.branchOf(doc.getString("_id"))));
    return settings.target(hostDefault, queues);
  }

  private static String queueIds(String org, Repo repo) {
    return QueueKey.repositoryIdPattern(
        org, new RepoRef(repo.host(), repo.owner(), repo.name()), true);
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
