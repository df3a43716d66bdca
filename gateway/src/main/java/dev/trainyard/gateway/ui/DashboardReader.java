package dev.trainyard.gateway.ui;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.view.PullRequestRow;
import dev.trainyard.common.view.TestRunDocument;
import dev.trainyard.common.view.TestingDetails;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.bson.Document;
import org.springframework.data.domain.Sort;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What the dashboard reads beyond the API's own readers, each query served by an index (the
 * worker's and the gateway's declared ones): an organization's queues, a queue's live and recent
 * runs, its recent conclusions, a PR's history rows and runs.
 */
@Component
public class DashboardReader {
  static final int RECENT = 25;
  static final int MAX_QUEUES = 500;
  static final int MAX_RUNS = 200;
  private final ReactiveMongoTemplate mongo;
  private final InstantSource clock;

  /** A queue as the overview lists it. */
  public record QueueSummary(
      QueueKey key,
      String state,
      String mode,
      int depth,
      int testing,
      int mergedLastHour,
      int failedLastHour,
      Duration p50,
      Duration p95) {}

  public DashboardReader(ReactiveMongoTemplate mongo, InstantSource clock) {
    this.mongo = mongo;
    this.clock = clock;
  }

  /** Every queue of the organization, by repository and branch, with its last hour. */
  public Flux<QueueSummary> queues(String org) {
    Query query =
        Query.query(Criteria.where("org").is(org).and("view").ne(null))
            .with(Sort.by("_id"))
            .limit(MAX_QUEUES);
    query.fields().include("view.state", "view.settings.mode", "activeEntries");
    return mongo
        .find(query, Document.class, Collections.QUEUES)
        .concatMap(
            doc -> {
              QueueKey key = parseKey(doc.getString("_id"));
              Document view = doc.get("view", Document.class);
              return Mono.zip(liveRuns(key).collectList(), concludedSince(key, lastHour()))
                  .map(
                      both ->
                          summary(
                              key,
                              view.getString("state"),
                              view.get("settings", Document.class).getString("mode"),
                              doc.get("activeEntries") instanceof Number n ? n.intValue() : 0,
                              both.getT1(),
                              both.getT2()));
            });
  }

  private static QueueSummary summary(
      QueueKey key,
      String state,
      String mode,
      int depth,
      List<TestRunDocument> live,
      List<PullRequestRow> concluded) {
    int testing = live.stream().mapToInt(r -> r.details().testedPullRequests().size()).sum();
    List<Duration> waits =
        concluded.stream()
            .filter(r -> r.submittedAt() != null && r.concludedAt() != null)
            .map(r -> Duration.between(r.submittedAt(), r.concludedAt()))
            .sorted()
            .toList();
    return new QueueSummary(
        key,
        state,
        mode,
        depth,
        testing,
        (int) concluded.stream().filter(r -> r.state().wire().equals("merged")).count(),
        (int) concluded.stream().filter(r -> r.state().wire().equals("failed")).count(),
        percentile(waits, 50),
        percentile(waits, 95));
  }

  /** The nearest-rank percentile; null when nothing concluded. */
  static Duration percentile(List<Duration> sorted, int p) {
    if (sorted.isEmpty()) {
      return null;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }

  private Instant lastHour() {
    return clock.instant().minus(Duration.ofHours(1));
  }

  /**
   * The queue's runs still testing or waiting to land, oldest first (runs started by one command
   * share their time: then in the order of their first PR).
   */
  public Flux<TestRunDocument> liveRuns(QueueKey key) {
    Query query =
        Query.query(Criteria.where("queueKey").is(key.id()).and("concludedAt").is(null))
            .limit(MAX_RUNS);
    return runs(query)
        .sort(
            Comparator.comparing((TestRunDocument r) -> r.details().createdAt())
                .thenComparingLong(DashboardReader::firstPr));
  }

  private static long firstPr(TestRunDocument run) {
    return run.details().testedPullRequests().stream()
        .mapToLong(TestingDetails.TestedPullRequest::prNumber)
        .min()
        .orElse(Long.MAX_VALUE);
  }

  /** Every run that tested the PR, newest first. */
  public Flux<TestRunDocument> runsOf(QueueKey key, long prNumber) {
    Query query =
        Query.query(
                Criteria.where("queueKey")
                    .is(key.id())
                    .and("details.testedPullRequests.prNumber")
                    .is(prNumber))
            .with(Sort.by(Sort.Order.desc("details.createdAt")))
            .limit(RECENT);
    return runs(query);
  }

  private Flux<TestRunDocument> runs(Query query) {
    return mongo
        .find(query, Document.class, Collections.TEST_RUNS)
        .map(doc -> Json.mapper().convertValue(doc, TestRunDocument.class));
  }

  /** The newest rows of PRs that concluded since {@code since}, newest first. */
  public Mono<List<PullRequestRow>> concludedSince(QueueKey key, Instant since) {
    Query query =
        Query.query(
                Criteria.where("queueKey")
                    .is(key.id())
                    .and("concludedAt")
                    .gte(dev.trainyard.common.json.Timestamps.format(since)))
            .with(Sort.by(Sort.Order.desc("concludedAt")))
            .limit(10_000);
    return rows(query, Collections.PULL_REQUEST_HEADS).collectList();
  }

  /** The queue's most recent conclusions. */
  public Mono<List<PullRequestRow>> recentlyConcluded(QueueKey key) {
    Query query =
        Query.query(Criteria.where("queueKey").is(key.id()).and("concludedAt").ne(null))
            .with(Sort.by(Sort.Order.desc("concludedAt")))
            .limit(RECENT);
    return rows(query, Collections.PULL_REQUEST_HEADS).collectList();
  }

  /** The newest rows of these PR numbers. */
  public Mono<List<PullRequestRow>> heads(QueueKey key, List<Long> numbers) {
    if (numbers.isEmpty()) {
      return Mono.just(List.of());
    }
    List<String> ids = numbers.stream().map(n -> PullRequestRow.headId(key.id(), n)).toList();
    return rows(Query.query(Criteria.where("_id").in(ids)), Collections.PULL_REQUEST_HEADS)
        .collectList();
  }

  public Mono<PullRequestRow> head(QueueKey key, long number) {
    return heads(key, List.of(number)).flatMap(l -> Mono.justOrEmpty(l.stream().findFirst()));
  }

  /** At most this many PRs answer a search. */
  static final int FOUND = 25;

  /**
   * "Find my PR": the organization's PRs, in every queue, numbered {@code number} (when not null)
   * or else from head branch {@code branch}, newest submission first.
   */
  public Flux<PullRequestRow> find(String org, Long number, String branch) {
    Criteria what =
        number != null
            ? Criteria.where("prNumber").is(number)
            : Criteria.where("headBranch").is(branch);
    Criteria ofOrg = Criteria.where("queueKey").regex("^" + Pattern.quote(org + "/"));
    Query query =
        Query.query(new Criteria().andOperator(what, ofOrg))
            .with(Sort.by(Sort.Order.desc("submittedAt")))
            .limit(FOUND);
    return rows(query, Collections.PULL_REQUEST_HEADS);
  }

  /** Every version of one submission, oldest first: its timeline. */
  public Mono<List<PullRequestRow>> history(String prId) {
    Query query =
        Query.query(Criteria.where("prId").is(prId))
            .with(Sort.by(Sort.Order.asc("fromVersion")))
            .limit(1_000);
    return rows(query, Collections.PULL_REQUESTS).collectList();
  }

  /**
   * The newest entry document of a submission while it is in the queue (its impacted targets);
   * empty once it left.
   */
  public Mono<Optional<Document>> entry(QueueKey key, String prId) {
    Query query =
        Query.query(Criteria.where("queue").is(key.id()).and("entry.id").is(prId))
            .with(Sort.by(Sort.Order.desc("version")))
            .limit(1);
    query.fields().include("entry");
    return mongo
        .find(query, Document.class, Collections.QUEUE_ENTRIES)
        .next()
        .map(doc -> Optional.of(doc.get("entry", Document.class)))
        .defaultIfEmpty(Optional.empty());
  }

  private Flux<PullRequestRow> rows(Query query, String collection) {
    return mongo
        .find(query, Document.class, collection)
        .map(doc -> Json.mapper().convertValue(doc, PullRequestRow.class));
  }

  /**
   * The key of a queue document id ({@link QueueKey#id}: {@code org/host/owner/name:branch}); a
   * host may hold a port's colon, a name never does, a branch may hold slashes.
   */
  static QueueKey parseKey(String id) {
    String[] parts = id.split("/", 4);
    String rest = parts[3];
    int colon = rest.indexOf(':');
    return QueueKey.of(
        parts[0], parts[1], parts[2], rest.substring(0, colon), rest.substring(colon + 1));
  }
}
