package dev.trainyard.worker.signals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.view.Collections;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.SubmittedQueue;
import dev.trainyard.worker.scm.HostLanes;
import dev.trainyard.worker.scm.ScmProvider;
import dev.trainyard.worker.scm.ScmPullRequest;
import dev.trainyard.worker.scm.ScriptedHost;
import dev.trainyard.worker.store.QueueCache;
import dev.trainyard.worker.store.QueueStore;
import dev.trainyard.worker.store.StoredQueues;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;

/**
 * A round reads each repository on its host's lane: one whose fetch does not end holds back neither
 * another host's repositories nor another repository of its own host, and the next round does not
 * read it a second time while the first read goes on.
 */
class ScmPollerTest {
  private static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");
  private static final Duration PATIENCE = Duration.ofSeconds(10);

  private static final QueueKey STUCK = QueueKey.of("acme", "git.example", "acme", "stuck", "main");
  private static final QueueKey NEIGHBOUR =
      QueueKey.of("acme", "git.example", "acme", "neighbour", "main");
  private static final QueueKey ELSEWHERE =
      QueueKey.of("beta", "github.com", "beta", "rocket", "main");
  private static final QueueKey REFUSED =
      QueueKey.of("gamma", "git.example", "gamma", "refused", "main");
  private static final QueueKey QUIET =
      QueueKey.of("gamma", "git.example", "gamma", "quiet", "main");

  private final MongoServer server = new MongoServer(new MemoryBackend());
  private final MongoClient client;
  private final MongoTemplate mongo;
  private final CountDownLatch gate = new CountDownLatch(1);
  private final Map<OrgRepo, Integer> fetches = new ConcurrentHashMap<>();
  private final Map<String, QueueCommand> sent = new ConcurrentHashMap<>();
  private final Map<OrgRepo, Integer> reads = new ConcurrentHashMap<>();
  private final Map<String, Integer> pullReads = new ConcurrentHashMap<>();
  private final Map<OrgRepo, String> refs = new ConcurrentHashMap<>();
  private final List<Set<OrgRepo>> readAheads = new CopyOnWriteArrayList<>();
  private final List<Integer> fetchedBefore = new CopyOnWriteArrayList<>();
  private final MockClock clock = new MockClock();
  private volatile Duration readAheadTakes = Duration.ZERO;
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final QueueCache cache = new QueueCache(QueueCache.DEFAULT_MAX_BYTES);
  private final ScmPoller poller;

  ScmPollerTest() {
    InetSocketAddress address = server.bind();
    client = MongoClients.create("mongodb://127.0.0.1:" + address.getPort());
    mongo = new MongoTemplate(client, "worker");
    for (QueueKey key : List.of(STUCK, NEIGHBOUR, ELSEWHERE)) {
      store(key, SubmittedQueue.submitted(key, NOW), 2);
    }
    OwnedQueues owned =
        new OwnedQueues(new KafkaListenerEndpointRegistry(), 1) {
          @Override
          public Predicate<String> now() {
            return id -> true; // every partition held, as by a worker alone
          }
        };
    poller =
        new ScmPoller(
            new ScmPoller.Queues(new QueueStore(mongo, 1 << 20), cache),
            owned,
            new Signals(null, null, null, null) {
              @Override
              public CompletableFuture<?> send(QueueKey key, QueueCommand command) {
                sent.put(key.id(), command);
                return CompletableFuture.completedFuture(null);
              }
            },
            hosts(),
            HostLanes.limits(3, ""), // an organization may hold two of a host's three
            new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock));
  }

  @AfterEach
  void close() {
    ((Logger) LoggerFactory.getLogger(ScmPoller.class)).detachAppender(logged);
    gate.countDown();
    poller.close();
    client.close();
    server.shutdownNow();
  }

  @Test
  void aRepositoryWhoseFetchDoesNotEndHoldsBackOnlyItself() {
    CompletableFuture<Void> first = poller.poll();

    await()
        .atMost(PATIENCE)
        .until(() -> sent.containsKey(NEIGHBOUR.id()) && sent.containsKey(ELSEWHERE.id()));
    assertThat(sent.get(ELSEWHERE.id())).isInstanceOf(QueueCommand.RecordPullRequestState.class);
    assertThat(sent).doesNotContainKey(STUCK.id());
    assertThat(first).isNotDone();

    listenToReports();
    readAheadTakes = Duration.ofMillis(1_100); // a slow round: its report says what it left
    CompletableFuture<Void> second = poller.poll(); // the stuck repository is still being read
    await().atMost(PATIENCE).until(second::isDone);
    assertThat(reports())
        .singleElement()
        .asString()
        .endsWith(
            "reading 2 repositories 0 ms (waits for their hosts' threads included; 1 left to an"
                + " earlier round's read)");
    assertThat(fetches.get(STUCK.orgRepo())).isEqualTo(1);
    assertThat(fetches.get(NEIGHBOUR.orgRepo())).isEqualTo(2);

    gate.countDown();

    await().atMost(PATIENCE).until(first::isDone);
    assertThat(sent.get(STUCK.id())).isInstanceOf(QueueCommand.RecordPullRequestState.class);
  }

  @Test
  void aQueueWhoseRepositoryAndVersionAreAsAtItsLastReadIsNotReadAgain() {
    gate.countDown();
    store(QUIET, SubmittedQueue.ready(QUIET, NOW), 2);

    poller.poll().join();
    assertThat(reads.get(QUIET.orgRepo())).isEqualTo(1);
    assertThat(sent).doesNotContainKey(QUIET.id()); // the host shows what the queue holds

    poller.poll().join();
    assertThat(reads.get(QUIET.orgRepo())).isEqualTo(1);
    assertThat(reads.get(ELSEWHERE.orgRepo())).isEqualTo(2); // its host cannot say: every round
    assertThat(reads.get(STUCK.orgRepo())).isEqualTo(2); // its last read sent a change

    refs.put(QUIET.orgRepo(), "pushed"); // a ref moved
    poller.poll().join();
    assertThat(reads.get(QUIET.orgRepo())).isEqualTo(2);
    poller.poll().join();
    assertThat(reads.get(QUIET.orgRepo())).isEqualTo(2);

    store(QUIET, SubmittedQueue.submitted(QUIET, NOW), 3); // a command changed its PR
    poller.poll().join();
    assertThat(reads.get(QUIET.orgRepo())).isEqualTo(3);
  }

  @Test
  void aQueueThatChangedWhileItsRepositoryDidNotHasOnlyItsChangedPullRequestsRead() {
    gate.countDown();
    store(QUIET, SubmittedQueue.ready(QUIET, NOW), 2);
    poller.poll().join();
    assertThat(pullReads).containsEntry(QUIET.id() + "#1", 1);

    QueueAggregate second = SubmittedQueue.andSubmitted(SubmittedQueue.ready(QUIET, NOW), 2, NOW);
    store(QUIET, second, 3);
    poller.poll().join();
    assertThat(pullReads).containsEntry(QUIET.id() + "#1", 1).containsEntry(QUIET.id() + "#2", 1);
    assertThat(sent).doesNotContainKey(QUIET.id()); // PR 2 is not pushed yet: nothing to record

    store(QUIET, second, 4); // another command; neither PR changed in the queue
    poller.poll().join();
    assertThat(pullReads).containsEntry(QUIET.id() + "#1", 1).containsEntry(QUIET.id() + "#2", 1);

    refs.put(QUIET.orgRepo(), "pushed"); // PR 2's branch may be there now
    poller.poll().join();
    assertThat(pullReads).containsEntry(QUIET.id() + "#1", 2).containsEntry(QUIET.id() + "#2", 2);

    store(QUIET, SubmittedQueue.andSubmitted(SubmittedQueue.submitted(QUIET, NOW), 2, NOW), 5);
    poller.poll().join(); // the queue holds PR 1 unread again (a resubmit): it alone is read
    assertThat(pullReads).containsEntry(QUIET.id() + "#1", 3).containsEntry(QUIET.id() + "#2", 2);
    assertThat(sent.get(QUIET.id())).isInstanceOf(QueueCommand.RecordPullRequestState.class);

    poller.poll().join(); // what it sent may be lost: PR 1 is read again until the queue shows it
    assertThat(pullReads).containsEntry(QUIET.id() + "#1", 4).containsEntry(QUIET.id() + "#2", 2);
  }

  @Test
  void aPullRequestWithDependenciesIsReadEveryRound() {
    gate.countDown();
    QueueAggregate dependent =
        SubmittedQueue.and(
            SubmittedQueue.ready(QUIET, NOW),
            NOW,
            new QueueCommand.SubmitPullRequest(2, null, null, null, List.of(1L)));
    store(QUIET, dependent, 2);
    poller.poll().join();

    store(QUIET, dependent, 3); // another command; neither PR changed in the queue
    poller.poll().join();
    // whether the host is asked of a dependency depends on the rest of the queue: not kept
    assertThat(pullReads).containsEntry(QUIET.id() + "#1", 1).containsEntry(QUIET.id() + "#2", 2);
  }

  @Test
  void aRoundReadsAheadOnceForAllItsRepositoriesBeforeReadingAny() {
    gate.countDown();

    poller.poll().join();
    poller.poll().join();

    Set<OrgRepo> all = Set.of(STUCK.orgRepo(), NEIGHBOUR.orgRepo(), ELSEWHERE.orgRepo());
    assertThat(readAheads).containsExactly(all, all);
    assertThat(fetchedBefore)
        .as("repositories fetched when each round read ahead")
        .containsExactly(0, 3);
  }

  @Test
  void aRoundLongerThanASecondIsReportedWithWhereItsTimeWentAtMostOnceAMinute() {
    gate.countDown();
    listenToReports();

    readAheadTakes = Duration.ofMillis(1_100);
    poller.poll().join();
    poller.poll().join(); // slow again, within the minute: counted, not reported
    readAheadTakes = Duration.ZERO;
    poller.poll().join();
    clock.add(Duration.ofMinutes(1));
    readAheadTakes = Duration.ofMillis(1_500);
    poller.poll().join();

    String where =
        "reading 3 repositories 0 ms (waits for their hosts' threads included; 0 left to an"
            + " earlier round's read)";
    assertThat(reports())
        .containsExactly(
            "a poller round took 1100 ms (rounds longer than 1 s since the last report: 1):"
                + " listing the active queues 0 ms, reading ahead 1100 ms, "
                + where,
            "a poller round took 1500 ms (rounds longer than 1 s since the last report: 2):"
                + " listing the active queues 0 ms, reading ahead 1500 ms, "
                + where);
  }

  @Test
  void aRepositoryThatCannotBeFetchedIsTheQueuesSourceProblem() {
    gate.countDown();
    store(REFUSED, SubmittedQueue.submitted(REFUSED, NOW), 2);

    poller.poll().join();

    assertThat(sent.get(REFUSED.id()))
        .isEqualTo(new QueueCommand.RecordSourceProblem("not authorized"));
  }

  private void listenToReports() {
    logged.start();
    ((Logger) LoggerFactory.getLogger(ScmPoller.class)).addAppender(logged);
  }

  /** The poller's reports of slow rounds logged since {@link #listenToReports}. */
  private List<String> reports() {
    return logged.list.stream()
        .map(ILoggingEvent::getFormattedMessage)
        .filter(line -> line.startsWith("a poller round took"))
        .toList();
  }

  /** A queue of PR 1 on {@code key}: its document names its key, the cache holds it. */
  private void store(QueueKey key, QueueAggregate aggregate, long version) {
    try {
      // the poller finds active queues by their documents' keys and reads each from the cache
      mongo
          .getCollection(Collections.QUEUES)
          .replaceOne(
              new Document("_id", key.id()),
              new Document("_id", key.id())
                  .append("activeEntries", 1)
                  .append(
                      "aggregate",
                      new Document("key", Document.parse(Json.mapper().writeValueAsString(key)))),
              new com.mongodb.client.model.ReplaceOptions().upsert(true));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    cache.put(StoredQueues.of(key.org(), aggregate, version, Map.of(), NOW));
  }

  /**
   * Serves every repository as holding PR 1 at {@code sha-1} (no other PR is pushed); the fetch of
   * {@link #STUCK}'s waits at the gate. Repositories of {@code git.example} say their refs' version
   * ({@link #refs}), GitHub's do not.
   */
  @SuppressWarnings("unchecked") // readAhead's argument
  private ScmProvider hosts() {
    return ScriptedHost.of(
        (method, args) ->
            switch (method) {
              case "serves" -> true;
              case "readAhead" -> {
                readAheads.add(Set.copyOf((Collection<OrgRepo>) args[0]));
                clock.add(readAheadTakes);
                fetchedBefore.add(fetches.values().stream().mapToInt(Integer::intValue).sum());
                yield null;
              }
              case "fetch" -> {
                OrgRepo repo = (OrgRepo) args[0];
                fetches.merge(repo, 1, Integer::sum);
                if (repo.equals(REFUSED.orgRepo())) {
                  throw new java.io.UncheckedIOException(new java.io.IOException("not authorized"));
                }
                if (repo.equals(STUCK.orgRepo())) {
                  gate.await(30, TimeUnit.SECONDS);
                }
                yield null;
              }
              case "refsVersion" ->
                  ((OrgRepo) args[0]).repo().host().equals("git.example")
                      ? Optional.of(refs.getOrDefault((OrgRepo) args[0], "initial"))
                      : Optional.empty();
              case "requiredChecks" -> Optional.empty();
              case "branchHead" -> Optional.of("target");
              case "emptyMeansClosed" -> false;
              case "pullRequest" -> {
                OrgRepo repo = (OrgRepo) args[0];
                long number = (long) args[1];
                reads.merge(repo, 1, Integer::sum);
                pullReads.merge(
                    new QueueKey(repo.org(), repo.repo(), (String) args[2]).id() + "#" + number,
                    1,
                    Integer::sum);
                yield number != 1
                    ? Optional.empty()
                    : Optional.of(
                        new ScmPullRequest(
                            1,
                            "sha-1",
                            null,
                            "main",
                            "Change 1",
                            "dev",
                            Mergeability.MERGEABLE,
                            null,
                            List.of(),
                            null));
              }
              default -> throw new UnsupportedOperationException(method);
            });
  }
}
