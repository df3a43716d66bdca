package dev.trainyard.gateway.pulls;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.json.Timestamps;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.view.PullRequestRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.bson.Document;
import org.springframework.data.domain.Sort;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Reads pull requests from the versioned history rows. */
@Component
public class PullRequestReader {
  private static final int BRANCH_CANDIDATES = 100;
  private final ReactiveMongoTemplate mongo;

  /** Filters of a listing; null fields do not filter. */
  record ListFilter(PrState state, Instant since, Instant until) {}

  public PullRequestReader(ReactiveMongoTemplate mongo) {
    this.mongo = mongo;
  }

  /** The newest submission of the PR number. */
  Mono<PullRequestRow> byNumber(QueueKey key, long number) {
    return mongo
        .findById(
            PullRequestRow.headId(key.id(), number), Document.class, Collections.PULL_REQUEST_HEADS)
        .map(doc -> Json.mapper().convertValue(doc, PullRequestRow.class));
  }

  /** The open submission of the head branch, else the most recently concluded one. */
  Mono<PullRequestRow> byBranch(QueueKey key, String branch) {
    Query query =
        Query.query(Criteria.where("queueKey").is(key.id()).and("headBranch").is(branch))
            .with(Sort.by(Sort.Order.desc("submittedAt")))
            .limit(BRANCH_CANDIDATES);
    return rows(query, Collections.PULL_REQUEST_HEADS)
        .collectList()
        .flatMap(
            candidates ->
                Mono.justOrEmpty(
                    candidates.stream()
                        .filter(r -> !r.state().isFinal())
                        .findFirst()
                        .or(
                            () ->
                                candidates.stream()
                                    .max(
                                        java.util.Comparator.comparing(
                                            PullRequestRow::concludedAt)))));
  }

  /** One page of the snapshot at {@code snapshot}, after {@code after} (null on page one). */
  Mono<List<PullRequestRow>> page(
      QueueKey key, long snapshot, ListFilter filter, ListCursor after, int take) {
    List<Criteria> all = new ArrayList<>();
    all.add(Criteria.where("queueKey").is(key.id()));
    all.add(Criteria.where("fromVersion").lte(snapshot));
    all.add(
        new Criteria()
            .orOperator(
                Criteria.where("toVersion").is(null), Criteria.where("toVersion").gt(snapshot)));
    if (filter.state() != null) {
      all.add(Criteria.where("state").is(filter.state().wire()));
    }
    if (filter.since() != null) {
      all.add(Criteria.where("concludedAt").gte(Timestamps.format(filter.since())));
    }
    if (filter.until() != null) {
      all.add(Criteria.where("concludedAt").lte(Timestamps.format(filter.until())));
    }
    if (after != null) {
      all.add(
          new Criteria()
              .orOperator(
                  Criteria.where("stateChangedAt").lt(after.stateChangedAt()),
                  new Criteria()
                      .andOperator(
                          Criteria.where("stateChangedAt").is(after.stateChangedAt()),
                          Criteria.where("prId").gt(after.prId()))));
    }
    Query query =
        Query.query(new Criteria().andOperator(all))
            .with(Sort.by(Sort.Order.desc("stateChangedAt"), Sort.Order.asc("prId")))
            .limit(take);
    return rows(query, Collections.PULL_REQUESTS).collectList();
  }

  private Flux<PullRequestRow> rows(Query query, String collection) {
    return mongo
        .find(query, Document.class, collection)
        .map(doc -> Json.mapper().convertValue(doc, PullRequestRow.class));
  }
}
