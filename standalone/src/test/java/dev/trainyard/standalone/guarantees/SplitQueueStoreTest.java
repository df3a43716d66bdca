package dev.trainyard.standalone.guarantees;

import static dev.trainyard.standalone.support.QueueVersions.next;
import static dev.trainyard.standalone.support.QueueVersions.recordState;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.view.Collections;
import dev.trainyard.standalone.infra.DocumentStore;
import dev.trainyard.standalone.support.QueueVersions;
import dev.trainyard.worker.store.QueueKeptChanging;
import dev.trainyard.worker.store.QueueSplit;
import dev.trainyard.worker.store.QueueStore;
import dev.trainyard.worker.store.RecentCommand;
import dev.trainyard.worker.store.StoredQueue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * A queue version is its queue document and the entry documents it names (ADR 0019): a version
 * writes only the entries it changed; a version that loses its race, or whose writer dies between
 * its entry documents and its queue document, is never read, and what it wrote is cleared; a reader
 * racing a writer always gets one whole version.
 */
class SplitQueueStoreTest {
  private static final QueueKey KEY = QueueKey.of("org", "github.com", "acme", "rocket", "main");
  private static final QueueKey OTHER =
      QueueKey.of("org", "github.com", "acme", "rocket", "release");
  private static final int PRS = 50;

  private DocumentStore documents;
  private MongoClient client;
  private QueueStore store;
  private MongoCollection<Document> entries;

  @BeforeEach
  void start() {
    documents = DocumentStore.inMemory();
    client = MongoClients.create(documents.uri("trainyard"));
    MongoTemplate mongo = new MongoTemplate(client, "trainyard");
    store = new QueueStore(mongo, QueueStore.DEFAULT_MAX_DOCUMENT_BYTES);
    entries = mongo.getCollection(Collections.QUEUE_ENTRIES);
  }

  @AfterEach
  void stop() {
    client.close();
    documents.close();
  }

  @Test
  void aVersionWritesOnlyTheEntriesItChangedAndLoadsWhole() {
    StoredQueue first = write(full(), StoredQueue.absent(KEY.id(), "org"));
    assertThat(entries.countDocuments()).isEqualTo(PRS);

    StoredQueue next = next(first, recordState(7));
    QueueStore.Prepared prepared = store.prepare(List.of(next), List.of(first));
    assertThat(prepared.splits().get(0).written()).hasSize(1);
    store.writeEntries(prepared);
    assertThat(store.saveAll(prepared)).isEmpty();

    assertThat(entries.countDocuments()).as("the superseded document is gone").isEqualTo(PRS);
    assertSame(store.load(KEY.id()).orElseThrow(), prepared.next().get(0));
  }

  @Test
  void aVersionThatLostItsRaceIsNeverReadAndWhatItWroteIsCleared() {
    StoredQueue first = write(full(), StoredQueue.absent(KEY.id(), "org"));
    QueueStore.Prepared winner =
        store.prepare(List.of(next(first, recordState(3))), List.of(first));
    QueueStore.Prepared loser = store.prepare(List.of(next(first, recordState(4))), List.of(first));

    store.writeEntries(winner);
    store.writeEntries(loser);
    assertThat(store.saveAll(winner)).isEmpty();
    assertThat(store.saveAll(loser)).containsExactly(KEY.id());

    assertSame(store.load(KEY.id()).orElseThrow(), winner.next().get(0));
    assertThat(entries.countDocuments()).isEqualTo(PRS);
  }

  /**
   * One poll writes several queues and one loses its race. The others are written, and stay
   * readable: what tells them apart is what survives the round trip through the store (their
   * remembered commands carry microseconds in memory, milliseconds in the store), and entry
   * documents a stored queue document names are never deleted.
   */
  @Test
  void aPollWhereOneQueueLosesItsRaceKeepsTheOthersReadable() {
    StoredQueue first = write(full(), StoredQueue.absent(KEY.id(), "org"));
    StoredQueue other =
        write(QueueVersions.full(OTHER, PRS), StoredQueue.absent(OTHER.id(), "org"));
    Instant precise = Instant.parse("2026-11-25T10:00:00.123456Z");
    StoredQueue raced = write(next(first, recordState(3)), first);

    StoredQueue lost = remembering(next(first, recordState(4)), precise, "c-lost");
    StoredQueue won = remembering(next(other, recordState(5)), precise, "c-won");
    QueueStore.Prepared poll = store.prepare(List.of(lost, won), List.of(first, other));
    store.writeEntries(poll);

    assertThat(store.saveAll(poll)).containsExactly(KEY.id());
    assertSame(store.load(OTHER.id()).orElseThrow(), poll.next().get(1));
    assertSame(store.load(KEY.id()).orElseThrow(), raced);
    assertThat(entries.countDocuments()).isEqualTo(2L * PRS);
  }

  @Test
  void documentsOfAWriterThatDiedBeforeItsQueueDocumentAreNeverReadAndThenCleared() {
    StoredQueue first = write(full(), StoredQueue.absent(KEY.id(), "org"));
    QueueSplit died = QueueSplit.of(next(first, recordState(3)), first);
    died.written().forEach(e -> entries.insertOne(Json.document(e)));

    assertSame(store.load(KEY.id()).orElseThrow(), first);

    StoredQueue retried = write(next(first, recordState(3)), first);
    assertThat(retried.entryTags()).isNotEqualTo(died.next().entryTags());
    assertSame(store.load(KEY.id()).orElseThrow(), retried);
    assertThat(entries.countDocuments())
        .as("the dead writer's document is deleted once the queue is past its version")
        .isEqualTo(PRS);
  }

  /**
   * Repeated: a read that returns half of a write (the embedded store's in-place replace, see
   * {@code DurableH2Backend}) showed in about one run in twenty before the store copied what it
   * answers.
   */
  @RepeatedTest(20)
  void aReaderRacingTheWriterAlwaysGetsOneWholeVersion() throws Exception {
    StoredQueue current = write(full(), StoredQueue.absent(KEY.id(), "org"));
    Map<Long, StoredQueue> written = new ConcurrentHashMap<>();
    written.put(current.version(), current);
    AtomicBoolean done = new AtomicBoolean();
    List<StoredQueue> read = java.util.Collections.synchronizedList(new ArrayList<>());
    Thread reader =
        new Thread(
            () -> {
              while (!done.get()) {
                try {
                  read.add(store.load(KEY.id()).orElseThrow());
                } catch (QueueKeptChanging changingOnEveryRead) {
                  // the queue changed on each of the load's attempts: a caller tries again later
                }
              }
            });
    reader.start();
    // at least 60 versions, and on until the reader has raced them 50 times
    for (int v = 0; v < 2_000 && (v < 60 || read.size() < 50); v++) {
      current = write(next(current, recordState(1 + v % PRS)), current);
      written.put(current.version(), current);
    }
    done.set(true);
    reader.join();

    assertThat(read).hasSizeGreaterThanOrEqualTo(50);
    for (StoredQueue r : read) {
      assertSame(r, written.get(r.version()));
    }
  }

  private static void assertSame(StoredQueue actual, StoredQueue expected) {
    assertThat(actual.version()).isEqualTo(expected.version());
    assertThat(actual.entryTags()).isEqualTo(expected.entryTags());
    assertThat(actual.aggregate()).isEqualTo(expected.aggregate());
    assertThat(actual.view()).isEqualTo(expected.view());
    assertThat(actual.rowVersions()).isEqualTo(expected.rowVersions());
  }

  /**
   * The ticker reads the keys of the due queues from their documents (it loads none), and the
   * waiting gauge sums only the queues holding PRs; an empty queue without a deadline is neither.
   */
  @Test
  void theTickerGetsKeysAndTheGaugeCountsTheQueuesHoldingPrs() {
    Instant due = Instant.parse("2026-11-30T08:00:00Z");
    StoredQueue waiting = full();
    write(
        new StoredQueue(
            waiting.id(),
            waiting.org(),
            waiting.version(),
            waiting.aggregate(),
            waiting.view(),
            due,
            waiting.recent(),
            waiting.outboxId(),
            waiting.rowVersions(),
            waiting.activeEntries(),
            waiting.effectsPending(),
            waiting.entryTags(),
            waiting.waitingSince()),
        StoredQueue.absent(KEY.id(), "org"));
    write(QueueVersions.full(OTHER, 0), StoredQueue.absent(OTHER.id(), "org"));

    assertThat(store.dueBefore(due)).containsExactly(KEY);
    assertThat(store.dueBefore(due.minusSeconds(1))).isEmpty();
    assertThat(store.activeEntries()).isEqualTo(PRS);
    assertThat(store.activeQueues()).containsExactly(KEY);
  }

  /** A queue holding {@value #PRS} waiting PRs, as version 1. */
  private StoredQueue full() {
    return QueueVersions.full(KEY, PRS);
  }

  /** Writes {@code next} over {@code before} as the worker does, and asserts it won its race. */
  private StoredQueue write(StoredQueue next, StoredQueue before) {
    return QueueVersions.write(store, next, before);
  }

  /**
   * {@code queue} remembering that it applied {@code commandId} at {@code at}, as documents written
   * before answers had a collection of their own do.
   */
  private static StoredQueue remembering(StoredQueue queue, Instant at, String commandId) {
    return new StoredQueue(
        queue.id(),
        queue.org(),
        queue.version(),
        queue.aggregate(),
        queue.view(),
        queue.nextDeadline(),
        List.of(new RecentCommand(commandId, at)),
        queue.outboxId(),
        queue.rowVersions(),
        queue.activeEntries(),
        queue.effectsPending(),
        queue.entryTags(),
        null);
  }
}
