package dev.trainyard.gateway.metrics;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.json.Timestamps;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.view.PullRequestListItem;
import dev.trainyard.common.view.PullRequestRow;
import dev.trainyard.common.view.TestRunDocument;
import dev.trainyard.common.view.TestingDetails;
import dev.trainyard.gateway.queues.QueueReader;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * Computes each queue's lanes from the read model: the queue view (gauges), the history rows of the
 * last hour (conclusions, waiting and queue times) and the test-run documents (bisection gauges,
 * test durations, restarts). Every read is bounded by the queue key and a time window on an indexed
 * field.
 *
 * <p>PRs leave a queue from the main lane (a bisection run never lands), so conclusions and the
 * per-PR histograms are counted there. A restart is a run that tests a PR its lane already tested
 * during the same submission (restartTestsOnPullRequest, a re-plan after a failure ahead, or a
 * deeper bisection level). Test durations count runs that succeeded or failed; a cancelled run says
 * nothing about how long tests take.
 */
@Component
public class MetricsReader {
  static final Duration WINDOW = Duration.ofHours(1);
  private static final Set<String> TESTED_STATES =
      Set.of(PrState.TESTING.wire(), PrState.TESTS_PASSED.wire(), PrState.PENDING_FAILURE.wire());
  private static final Set<String> MEASURED_RUNS = Set.of("succeeded", "failed");

  private final ReactiveMongoTemplate mongo;
  private final QueueReader queues;

  public MetricsReader(ReactiveMongoTemplate mongo, QueueReader queues) {
    this.mongo = mongo;
    this.queues = queues;
  }

  /** Queues whose id starts with {@code prefix} (an organization, or one of its repositories). */
  public Mono<List<LaneMetrics>> lanes(String prefix, Instant now) {
    Query query =
        Query.query(Criteria.where("_id").regex("^" + Pattern.quote(prefix)).and("view").ne(null))
            .with(Sort.by("_id"));
    query.fields().include("aggregate.key");
    return mongo
        .find(query, Document.class, Collections.QUEUES)
        .concatMap(doc -> queue(doc, now))
        .concatMapIterable(lanes -> lanes)
        .collectList();
  }

  private Mono<List<LaneMetrics>> queue(Document doc, Instant now) {
    QueueKey key =
        Json.mapper().convertValue(doc.get("aggregate", Document.class).get("key"), QueueKey.class);
    return queues.enqueued(key.id()).flatMap(enqueued -> queue(key, enqueued, now));
  }

  private Mono<List<LaneMetrics>> queue(
      QueueKey key, List<PullRequestListItem> enqueued, Instant now) {
    Instant since = now.minus(WINDOW);
    return Mono.zip(liveBisectionRuns(key), runsSince(key, since), concludedSince(key, since))
        .flatMap(
            t ->
                firstTests(key, t.getT3())
                    .zipWith(restarts(key, t.getT2(), since))
                    .map(
                        more ->
                            build(
                                key,
                                enqueued,
                                t.getT1(),
                                t.getT2(),
                                t.getT3(),
                                more.getT1(),
                                more.getT2(),
                                since)));
  }

  private static List<LaneMetrics> build(
      QueueKey key,
      List<PullRequestListItem> enqueued,
      List<TestRunDocument> liveBisection,
      List<TestRunDocument> recentRuns,
      Collection<PullRequestRow> concluded,
      Map<String, Instant> firstTests,
      Map<String, Long> restarts,
      Instant since) {
    String repo = key.repo().slug();
    Set<Long> bisecting = new HashSet<>();
    long bisectionTesting = 0;
    for (TestRunDocument run : liveBisection) {
      List<TestingDetails.TestedPullRequest> prs = run.details().testedPullRequests();
      prs.forEach(p -> bisecting.add(p.prNumber()));
      if (run.details().testBranchSha() != null) {
        bisectionTesting += prs.size();
      }
    }
    long notReady = enqueued.stream().filter(p -> p.state() == PrState.NOT_READY).count();
    long testing =
        enqueued.stream()
            .filter(p -> p.state() == PrState.TESTING && !bisecting.contains(p.prNumber()))
            .count();

    Histogram wait = new Histogram();
    Histogram inQueue = new Histogram();
    long merged = 0;
    long failed = 0;
    long cancelled = 0;
    for (PullRequestRow row : concluded) {
      switch (row.state()) {
        case MERGED:
          merged++;
          break;
        case FAILED:
          failed++;
          break;
        default:
          cancelled++;
      }
      inQueue.observe(Duration.between(row.submittedAt(), row.concludedAt()));
      Instant firstTest = firstTests.get(row.prId());
      if (firstTest != null) {
        wait.observe(Duration.between(row.submittedAt(), firstTest));
      }
    }
    Map<String, Histogram> testDurations = new HashMap<>();
    for (TestRunDocument run : recentRuns) {
      if (run.concludedAt() != null
          && !run.concludedAt().isBefore(since)
          && MEASURED_RUNS.contains(run.details().status())) {
        testDurations
            .computeIfAbsent(run.queueType(), t -> new Histogram())
            .observe(Duration.between(run.details().createdAt(), run.concludedAt()));
      }
    }
    LaneMetrics main =
        new LaneMetrics(
            repo,
            key.repo().host(),
            key.branch(),
            TestRunDocument.MAIN,
            enqueued.size(),
            notReady,
            testing,
            merged,
            failed,
            cancelled,
            restarts.getOrDefault(TestRunDocument.MAIN, 0L),
            wait,
            testDurations.getOrDefault(TestRunDocument.MAIN, new Histogram()),
            inQueue);
    LaneMetrics bisection =
        new LaneMetrics(
            repo,
            key.repo().host(),
            key.branch(),
            TestRunDocument.BISECTION,
            bisecting.size(),
            0,
            bisectionTesting,
            0,
            0,
            0,
            restarts.getOrDefault(TestRunDocument.BISECTION, 0L),
            new Histogram(),
            testDurations.getOrDefault(TestRunDocument.BISECTION, new Histogram()),
            new Histogram());
    return List.of(main, bisection);
  }

  /** Bisection runs not yet concluded (documents without a lane predate it and are skipped). */
  private Mono<List<TestRunDocument>> liveBisectionRuns(QueueKey key) {
    return runs(Query.query(
            Criteria.where("queueKey")
                .is(key.id())
                .and("concludedAt")
                .is(null)
                .and("queueType")
                .is(TestRunDocument.BISECTION)))
        .collectList();
  }

  /** Runs that started or concluded within the window. */
  private Mono<List<TestRunDocument>> runsSince(QueueKey key, Instant since) {
    String from = Timestamps.format(since);
    Flux<TestRunDocument> started =
        runs(
            Query.query(
                Criteria.where("queueKey").is(key.id()).and("details.createdAt").gte(from)));
    Flux<TestRunDocument> concluded =
        runs(Query.query(Criteria.where("queueKey").is(key.id()).and("concludedAt").gte(from)));
    return Flux.concat(started, concluded)
        .collectMap(TestRunDocument::id, run -> run, LinkedHashMap::new)
        .map(byId -> List.copyOf(byId.values()));
  }

  /** The newest concluded row of every PR that left the queue within the window. */
  private Mono<Collection<PullRequestRow>> concludedSince(QueueKey key, Instant since) {
    Query query =
        Query.query(
                Criteria.where("queueKey")
                    .is(key.id())
                    .and("stateChangedAt")
                    .gte(Timestamps.format(since))
                    .and("concludedAt")
                    .ne(null))
            .with(Sort.by("stateChangedAt")); // oldest first: the newest row of a PR is kept
    return rows(query)
        .collectMap(PullRequestRow::prId, row -> row, LinkedHashMap::new)
        .map(Map::values);
  }

  /** When each concluded PR was first seen in a tested state; a PR never tested has no entry. */
  private Mono<Map<String, Instant>> firstTests(
      QueueKey key, Collection<PullRequestRow> concluded) {
    if (concluded.isEmpty()) {
      return Mono.just(Map.of());
    }
    Instant earliest =
        concluded.stream().map(PullRequestRow::submittedAt).min(Instant::compareTo).orElseThrow();
    Query query =
        Query.query(
            Criteria.where("queueKey")
                .is(key.id())
                .and("stateChangedAt")
                .gte(Timestamps.format(earliest))
                .and("prId")
                .in(concluded.stream().map(PullRequestRow::prId).toList())
                .and("state")
                .in(TESTED_STATES));
    return rows(query)
        .collectList()
        .map(
            rows -> {
              Map<String, Instant> first = new HashMap<>();
              for (PullRequestRow row : rows) {
                first.merge(row.prId(), row.stateChangedAt(), (a, b) -> a.isBefore(b) ? a : b);
              }
              return first;
            });
  }

  /**
   * Restarts per lane: each run started within the window counts once for every PR of it that an
   * earlier run of its lane tested since the PR's current submission.
   */
  private Mono<Map<String, Long>> restarts(
      QueueKey key, List<TestRunDocument> recent, Instant since) {
    List<TestRunDocument> started =
        recent.stream()
            .filter(r -> r.queueType() != null && !r.details().createdAt().isBefore(since))
            .toList();
    Set<Long> numbers = new HashSet<>();
    started.forEach(r -> r.details().testedPullRequests().forEach(p -> numbers.add(p.prNumber())));
    if (numbers.isEmpty()) {
      return Mono.just(Map.of());
    }
    List<String> headIds = numbers.stream().map(n -> PullRequestRow.headId(key.id(), n)).toList();
    return rows(Query.query(Criteria.where("_id").in(headIds)), Collections.PULL_REQUEST_HEADS)
        .collectMap(PullRequestRow::prNumber, PullRequestRow::submittedAt)
        .flatMap(
            submitted -> {
              Instant earliest = submitted.values().stream().min(Instant::compareTo).orElse(since);
              Query earlier =
                  Query.query(
                      Criteria.where("queueKey")
                          .is(key.id())
                          .and("details.createdAt")
                          .gte(Timestamps.format(earliest))
                          .lt(Timestamps.format(since))
                          .and("details.testedPullRequests.prNumber")
                          .in(numbers));
              return runs(earlier)
                  .collectList()
                  .map(
                      before -> {
                        List<TestRunDocument> all = new ArrayList<>(before);
                        all.addAll(started);
                        return countRestarts(started, all, submitted);
                      });
            });
  }

  static Map<String, Long> countRestarts(
      List<TestRunDocument> started, List<TestRunDocument> all, Map<Long, Instant> submitted) {
    Map<String, Long> restarts = new HashMap<>();
    for (TestRunDocument run : started) {
      Instant at = run.details().createdAt();
      for (TestingDetails.TestedPullRequest pr : run.details().testedPullRequests()) {
        Instant from = submitted.get(pr.prNumber());
        boolean testedBefore =
            from != null
                && all.stream()
                    .anyMatch(
                        other ->
                            run.queueType().equals(other.queueType())
                                && !other.id().equals(run.id())
                                && other.details().createdAt().isBefore(at)
                                && !other.details().createdAt().isBefore(from)
                                && other.details().testedPullRequests().stream()
                                    .anyMatch(p -> p.prNumber() == pr.prNumber()));
        if (testedBefore) {
          restarts.merge(run.queueType(), 1L, Long::sum);
        }
      }
    }
    return restarts;
  }

  private Flux<TestRunDocument> runs(Query query) {
    return mongo
        .find(query, Document.class, Collections.TEST_RUNS)
        .map(doc -> Json.mapper().convertValue(doc, TestRunDocument.class))
        .filter(run -> run.details() != null && run.details().createdAt() != null);
  }

  private Flux<PullRequestRow> rows(Query query) {
    return rows(query, Collections.PULL_REQUESTS);
  }

  private Flux<PullRequestRow> rows(Query query, String collection) {
    return mongo
        .find(query, Document.class, collection)
        .map(doc -> Json.mapper().convertValue(doc, PullRequestRow.class));
  }
}
