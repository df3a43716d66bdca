package dev.trainyard.gateway.queues;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.json.Timestamps;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.view.EntryTags;
import dev.trainyard.common.view.PullRequestListItem;
import dev.trainyard.common.view.QueueForecast;
import dev.trainyard.common.view.QueueView;
import dev.trainyard.gateway.http.ApiException;
import java.time.Instant;
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import java.util.Set;
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
  private static final int MAX_READS = 8;

  private final ReactiveMongoTemplate mongo;

  public QueueReader(ReactiveMongoTemplate mongo) {
    this.mongo = mongo;
  }

  public Mono<Void> requireExists(QueueKey key) {
    return find(key, "view.state").then();
  }

  /** The queue as getQueue shows it: its document's view and its entry documents' lines. */
  public Mono<QueueView> view(QueueKey key) {
    return find(key, "view")
        .map(doc -> Json.mapper().convertValue(doc.get("view"), QueueView.class))
        .zipWith(
            enqueued(key.id()),
            (stored, items) ->
                new QueueView(
                    stored.state(),
                    stored.branch(),
                    stored.settings(),
                    stored.freeze(),
                    items,
                    stored.forecast()));
  }

  /**
   * The queue's waiting pull requests in queue order, from the entry documents its newest version
   * names (ADR 0019); none for a queue that does not exist. A version written between reading the
   * names and the documents may have deleted some: the names are read again.
   */
  public Mono<List<PullRequestListItem>> enqueued(String queueId) {
    return Mono.defer(() -> enqueuedOnce(queueId))
        .repeatWhenEmpty(MAX_READS, repeats -> repeats)
        .onErrorMap(
            IllegalStateException.class,
            e ->
                ApiException.unavailable(
                    "the queue changed on every read; try again (" + e.getMessage() + ")"));
  }

  private Mono<List<PullRequestListItem>> enqueuedOnce(String queueId) {
    Query header = Query.query(Criteria.where("_id").is(queueId));
    header.fields().include("entryTags");
    return mongo
        .findOne(header, Document.class, Collections.QUEUES)
        .map(doc -> EntryTags.parse(doc.getString("entryTags")).documentIds(queueId))
        .defaultIfEmpty(Set.of())
        .flatMap(
            named -> {
              if (named.isEmpty()) {
                return Mono.just(List.<PullRequestListItem>of());
              }
              Query entries = Query.query(Criteria.where("queue").is(queueId));
              entries.fields().include("item", "sequence");
              return mongo
                  .find(entries, Document.class, Collections.QUEUE_ENTRIES)
                  .filter(d -> named.contains(d.getString("_id")))
                  .collectList()
                  .filter(docs -> docs.size() == named.size())
                  .map(QueueReader::inQueueOrder);
            });
  }

  private static List<PullRequestListItem> inQueueOrder(List<Document> entries) {
    return entries.stream()
        .sorted(
            Comparator.comparingInt(
                    (Document d) -> d.get("item", Document.class).getInteger("priorityValue"))
                .thenComparingLong(d -> ((Number) d.get("sequence")).longValue()))
        .map(d -> Json.mapper().convertValue(d.get("item"), PullRequestListItem.class))
        .toList();
  }

  /** Where the queue's PRs stand, as its newest version estimated (none for a missing queue). */
  public Mono<QueueForecast> forecast(QueueKey key) {
    return find(key, "view.forecast").map(QueueReader::forecastOf);
  }

  /** What a listing reads of its queue, in one read: the version it lists and the forecast. */
  public record Listing(long version, QueueForecast forecast) {}

  /**
   * The queue version a listing reads (the newest one whose history rows are complete: while the
   * newest version's outbox is still unpublished, the version before) and its forecast.
   */
  public Mono<Listing> listing(QueueKey key) {
    return find(key, "version", "outboxId", "view.forecast")
        .flatMap(
            doc -> {
              long version = ((Number) doc.get("version")).longValue();
              QueueForecast forecast = forecastOf(doc);
              String outbox = doc.getString("outboxId");
              return outbox == null
                  ? Mono.just(new Listing(version, forecast))
                  : mongo
                      .exists(Query.query(Criteria.where("_id").is(outbox)), Collections.OUTBOXES)
                      .map(
                          unpublished ->
                              new Listing(unpublished ? version - 1 : version, forecast));
            });
  }

  /** The forecast a queue document holds, read from the document: no tree, no second parse. */
  static QueueForecast forecastOf(Document queue) {
    Document forecast = queue.get("view", Document.class).get("forecast", Document.class);
    if (forecast == null) {
      return QueueForecast.NONE;
    }
    return new QueueForecast(
        instant(forecast.get("at")),
        forecast.getString("prNumbers"),
        forecast.getString("etaSeconds"),
        forecast.getString("waits"),
        forecast.get("batchUntil") == null ? null : instant(forecast.get("batchUntil")),
        forecast.get("ciMinutesPerMerge") instanceof Number spent ? spent.doubleValue() : null,
        forecast.get("predictedRiskAuc") instanceof Number auc ? auc.doubleValue() : null,
        Boolean.TRUE.equals(forecast.getBoolean("predictedRiskTrusted")));
  }

  private static Instant instant(Object stored) {
    return stored instanceof Date date ? date.toInstant() : Timestamps.parse((String) stored);
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
