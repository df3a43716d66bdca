package dev.trainyard.gateway.queues;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.view.QueueView;
import dev.trainyard.gateway.http.ApiException;
import java.util.List;
import org.bson.Document;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/** Reads queue aggregate documents written by the worker (only their read-model parts). */
@Component
public class QueueReader {
  private final ReactiveMongoTemplate mongo;

  /**
   * What a reader sees of a queue: its view and the queue version its history rows are complete to.
   */
  public record QueueSnapshot(QueueView view, long version) {}

  public QueueReader(ReactiveMongoTemplate mongo) {
    this.mongo = mongo;
  }

  /** The queue, or a 404 naming it; another organization's queue is just as absent. */
  public Mono<QueueSnapshot> require(QueueKey key) {
    return mongo
        .findById(key.id(), Document.class, Collections.QUEUES)
        .filter(doc -> doc.get("view") != null)
        .map(QueueReader::snapshot)
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

  private static QueueSnapshot snapshot(Document doc) {
    QueueView view = Json.mapper().convertValue(doc.get("view"), QueueView.class);
    long version = ((Number) doc.get("version")).longValue();
    boolean unpublished =
        !doc.getList("rows", Object.class, List.of()).isEmpty()
            || !doc.getList("events", Object.class, List.of()).isEmpty();
    // History rows of the newest version exist once its outbox is published.
    return new QueueSnapshot(view, unpublished ? version - 1 : version);
  }
}
