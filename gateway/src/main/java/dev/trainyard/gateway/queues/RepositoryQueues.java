package dev.trainyard.gateway.queues;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.QueueSettings;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.common.view.Collections;
import dev.trainyard.gateway.http.ApiException;
import java.util.List;
import org.bson.Document;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/** The queues an organization has on one repository (one per target branch). */
@Component
public class RepositoryQueues {
  private final ReactiveMongoTemplate mongo;

  public RepositoryQueues(ReactiveMongoTemplate mongo) {
    this.mongo = mongo;
  }

  /** A queue on the repository, with its settings. */
  public record RepositoryQueue(QueueKey key, QueueSettings settings) {}

  /** The queues, or a 404 when the organization has none on {@code repo}. */
  public Mono<List<QueueKey>> require(String org, RepoRef repo) {
    return find(org, repo)
        .map(queues -> queues.stream().map(RepositoryQueue::key).toList())
        .filter(keys -> !keys.isEmpty())
        .switchIfEmpty(
            Mono.error(
                () ->
                    ApiException.notFound(
                        "no queue of this organization uses " + repo.host() + "/" + repo.slug())));
  }

  /** The organization's queues on {@code repo} (none: an empty list). */
  public Mono<List<RepositoryQueue>> find(String org, RepoRef repo) {
    return find(org, repo, false);
  }

  /**
   * The organization's queues on {@code repo}, its owner and name compared without case when {@code
   * anyCase}: GitHub's names are case-insensitive, so a delivery for {@code Acme/WebApp} reaches
   * the queue created as {@code acme/webapp}. The organization and host always match exactly: no
   * spelling reaches another organization's queues.
   */
  public Mono<List<RepositoryQueue>> find(String org, RepoRef repo, boolean anyCase) {
    String pattern = QueueKey.repositoryIdPattern(org, repo, anyCase);
    Query query = Query.query(Criteria.where("_id").regex(pattern).and("view").ne(null));
    query.fields().include("aggregate.key").include("aggregate.settings");
    return mongo
        .find(query, Document.class, Collections.QUEUES)
        .map(
            doc -> {
              Document aggregate = doc.get("aggregate", Document.class);
              return new RepositoryQueue(
                  Json.mapper().convertValue(aggregate.get("key"), QueueKey.class),
                  Json.mapper().convertValue(aggregate.get("settings"), QueueSettings.class));
            })
        .collectList();
  }
}
