package dev.trainyard.gateway.queues;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.view.QueueView;
import dev.trainyard.gateway.http.ApiException;
import org.bson.Document;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Reads queue aggregate documents written by the worker, only the read-model parts each request
 * needs. A missing queue is a 404 naming it; another organization's queue is just as missing.
 */
@Component
public class QueueReader {
  private final ReactiveMongoTemplate mongo;

  public QueueReader(ReactiveMongoTemplate mongo) {
    this.mongo = mongo;
  }

  public Mono<Void> requireExists(QueueKey key) {
    return find(key, "view.state").then();
  }

  public Mono<QueueView> view(QueueKey key) {
    return find(key, "view")
        .map(doc -> Json.mapper().convertValue(doc.get("view"), QueueView.class));
  }

  /**
   * The queue version a listing reads: the newest one whose history rows are complete. While the
   * newest version's outbox is still unpublished, that is the version before.
   */
  public Mono<Long> listingVersion(QueueKey key) {
    return find(key, "version", "outboxId")
        .flatMap(
            doc -> {
              long version = ((Number) doc.get("version")).longValue();
              String outbox = doc.getString("outboxId");
              return outbox == null
                  ? Mono.just(version)
                  : mongo
                      .exists(Query.query(Criteria.where("_id").is(outbox)), Collections.OUTBOXES)
                      .map(unpublished -> unpublished ? version - 1 : version);
            });
  }

  private Mono<Document> find(QueueKey key, String... fields) {
    Query query = Query.query(Criteria.where("_id").is(key.id()).and("view").ne(null));
    query.fields().include(fields);
    return mongo
        .findOne(query, Document.class, Collections.QUEUES)
        .switchIfEmpty(Mono.error(() -> notFound(key)));
  }

  public static ApiException notFound(QueueKey key) {
    return ApiException.notFound(
        "no queue exists for "
            + key.repo().host()
            + "/"
            + key.repo().slug()
            + " branch "
            + key.branch());
  }
}
