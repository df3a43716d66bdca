package dev.trainyard.standalone.guarantees;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.view.PullRequestRow;
import dev.trainyard.common.view.TestRunDocument;
import dev.trainyard.standalone.support.RecordedStore;
import dev.trainyard.worker.engine.CommandContext;
import dev.trainyard.worker.engine.EventApplier;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.QueueEngine;
import dev.trainyard.worker.projection.Views;
import dev.trainyard.worker.store.HistoryStore;
import dev.trainyard.worker.store.Outbox;
import dev.trainyard.worker.store.OutboxStore;
import dev.trainyard.worker.store.QueueStore;
import dev.trainyard.worker.store.StoredQueue;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * Which of a poll's writes ask for the journal (ADR 0022, 0051, 0060): not the entry documents and
 * the outbox, which a journaled write after them makes durable, nor a history write followed by
 * another one, nor the outbox's delete; the last history write does, and the queue document when no
 * heads follow it. Each write is seen as the driver sends it to the store.
 */
class JournaledWritesTest {
  private static final QueueKey KEY = QueueKey.of("org", "github.com", "acme", "rocket", "main");
  private static final Instant NOW = Instant.parse("2026-11-26T10:00:00Z");
  private static final Set<String> WRITES = Set.of("insert", "update", "delete");

  private RecordedStore recorded;
  private MongoTemplate mongo;

  @BeforeEach
  void start() {
    recorded = RecordedStore.withDefaults();
    mongo = recorded.mongo();
  }

  @AfterEach
  void stop() {
    recorded.close();
  }

  static Stream<Arguments> versions() {
    String entries = Collections.QUEUE_ENTRIES;
    String outboxes = Collections.OUTBOXES;
    String queues = Collections.QUEUES;
    return Stream.of(
        Arguments.of(
            "a setting changed: no head follows, the queue document asks for the journal",
            0,
            List.of(
                entries + " unjournaled",
                outboxes + " unjournaled",
                queues + " journaled",
                outboxes + " unjournaled")),
        Arguments.of(
            "a PR submitted: its head follows, journaled, and holds the queue document",
            1,
            List.of(
                entries + " unjournaled",
                outboxes + " unjournaled",
                queues + " unjournaled",
                Collections.PULL_REQUESTS + " unjournaled",
                Collections.PULL_REQUEST_HEADS + " journaled",
                outboxes + " unjournaled")));
  }

  /**
   * A poll's writes for one version, as the worker makes them: the entry documents and the outbox,
   * the queue document (journaled unless the version's heads follow it, ADR 0060), the history (the
   * heads last, journaled), and after the replies the outbox's delete, never journaled.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("versions")
  void theQueueDocumentAsksForTheJournalOnlyWhenNoHeadsFollowIt(
      String name, int rows, List<String> expected) {
    QueueStore queues = new QueueStore(mongo, QueueStore.DEFAULT_MAX_DOCUMENT_BYTES);
    OutboxStore outboxes = new OutboxStore(mongo);
    HistoryStore history = new HistoryStore(mongo);
    Outbox outbox = outbox(rows, 0);

    QueueStore.Prepared prepared = entriesAndOutboxWritten(queues, outboxes, outbox);
    assertThat(
            HistoryStore.writesCurrent(outbox)
                ? queues.saveAllAheadOfAJournaledWrite(prepared)
                : queues.saveAll(prepared))
        .isEmpty();
    history.write(List.of(outbox));
    outboxes.delete(List.of(outbox));

    assertThat(writes()).containsExactlyElementsOf(expected);
    assertThat(queues.load(KEY.id())).map(StoredQueue::version).contains(1L);
  }

  @Test
  void aQueueDocumentIsNotWrittenBeforeItsEntryDocuments() {
    QueueStore queues = new QueueStore(mongo, QueueStore.DEFAULT_MAX_DOCUMENT_BYTES);
    QueueStore.Prepared prepared =
        queues.prepare(List.of(queueWithOnePr()), List.of(StoredQueue.absent(KEY.id(), "org")));

    assertThatThrownBy(() -> queues.saveAll(prepared)).isInstanceOf(IllegalStateException.class);
    assertThat(writes()).doesNotContain(Collections.QUEUES + " journaled");
  }

  static Stream<Arguments> histories() {
    String rows = Collections.PULL_REQUESTS;
    String heads = Collections.PULL_REQUEST_HEADS;
    String runs = Collections.TEST_RUNS;
    return Stream.of(
        Arguments.of("rows only", 1, 0, List.of(rows + " unjournaled", heads + " journaled")),
        Arguments.of(
            "rows and runs",
            1,
            1,
            List.of(rows + " unjournaled", runs + " unjournaled", heads + " journaled")),
        Arguments.of("runs only", 0, 2, List.of(runs + " journaled")),
        Arguments.of("nothing", 0, 0, List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("histories")
  void theLastHistoryWriteIsJournaled(String name, int rows, int runs, List<String> expected) {
    HistoryStore history = new HistoryStore(mongo);
    recorded.forget();

    Outbox outbox = outbox(rows, runs);
    history.write(List.of(outbox));

    assertThat(writes()).containsExactlyElementsOf(expected);
    // a version whose history writes nothing journaled keeps its queue document's journal
    assertThat(HistoryStore.writesCurrent(outbox)).isEqualTo(!expected.isEmpty());
  }

  /**
   * The worker's publish (ADR 0060): the whole history before the replies (the rows, the test runs,
   * then the heads a reply's client reads next, journaled), and the outbox's delete after them,
   * unjournaled.
   */
  @Test
  void theHistoryIsWrittenBeforeTheRepliesTheOutboxDeletedAfterWithoutTheJournal() {
    HistoryStore history = new HistoryStore(mongo);
    OutboxStore outboxes = new OutboxStore(mongo);
    Outbox outbox = outbox(2, 1);
    outboxes.writeAll(List.of(outbox));
    recorded.forget();

    history.write(List.of(outbox));
    List<String> beforeReplies = writes();
    outboxes.delete(List.of(outbox));

    assertThat(beforeReplies)
        .containsExactly(
            Collections.PULL_REQUESTS + " unjournaled",
            Collections.TEST_RUNS + " unjournaled",
            Collections.PULL_REQUEST_HEADS + " journaled");
    assertThat(writes().subList(beforeReplies.size(), writes().size()))
        .containsExactly(Collections.OUTBOXES + " unjournaled");
    assertThat(mongo.getCollection(Collections.PULL_REQUESTS).countDocuments()).isEqualTo(2);
    assertThat(mongo.getCollection(Collections.PULL_REQUEST_HEADS).countDocuments()).isEqualTo(2);
    assertThat(mongo.getCollection(Collections.OUTBOXES).countDocuments()).isZero();
  }

  /**
   * A new queue's first version prepared, its entry documents and {@code outbox} written: what a
   * poll writes before the queue document. The writes are recorded from here on.
   */
  private QueueStore.Prepared entriesAndOutboxWritten(
      QueueStore queues, OutboxStore outboxes, Outbox outbox) {
    StoredQueue first = queueWithOnePr();
    recorded.forget();
    QueueStore.Prepared prepared =
        queues.prepare(List.of(first), List.of(StoredQueue.absent(KEY.id(), "org")));
    queues.writeEntries(prepared);
    outboxes.writeAll(List.of(outbox));
    return prepared;
  }

  /** Version 1's outbox with {@code rows} rows and {@code runs} test runs. */
  private static Outbox outbox(int rows, int runs) {
    return new Outbox(
        "o-1",
        KEY.id(),
        "org",
        1,
        Stream.iterate(1L, n -> n + 1).limit(rows).map(JournaledWritesTest::row).toList(),
        Stream.iterate(1L, n -> n + 1).limit(runs).map(JournaledWritesTest::run).toList(),
        List.of(),
        List.of());
  }

  /** Each write the store received: its collection, then "journaled" or "unjournaled". */
  private List<String> writes() {
    return recorded.sent().stream()
        .filter(c -> WRITES.contains(c.getFirstKey()))
        .map(c -> describe(c.getFirstKey(), c))
        .toList();
  }

  private static String describe(String command, BsonDocument body) {
    BsonDocument concern = body.getDocument("writeConcern", new BsonDocument());
    boolean journaled = concern.getBoolean("j", BsonBoolean.TRUE).getValue();
    return body.getString(command).getValue() + (journaled ? " journaled" : " unjournaled");
  }

  private static StoredQueue queueWithOnePr() {
    QueueEngine engine = new QueueEngine();
    QueueAggregate state = null;
    for (QueueCommand command :
        List.of(
            new QueueCommand.CreateQueue(QueueMode.SINGLE, 1),
            new QueueCommand.SubmitPullRequest(1, null, false))) {
      CommandContext ctx = new CommandContext("c-" + command.hashCode(), NOW);
      state = EventApplier.applyAll(state, engine.decide(state, KEY, command, ctx).events());
    }
    return new StoredQueue(
        KEY.id(),
        "org",
        1,
        state,
        Views.queue(state, NOW),
        null,
        List.of(),
        "o-1",
        Map.of(state.entries().get(0).id(), 1L),
        1,
        false,
        null,
        null);
  }

  private static PullRequestRow row(long number) {
    return new PullRequestRow(
        PullRequestRow.rowId("pr-" + number, 1),
        KEY.id(),
        "pr-" + number,
        number,
        "head-" + number,
        null,
        NOW,
        NOW,
        null,
        1,
        null,
        null,
        null,
        null);
  }

  private static TestRunDocument run(long number) {
    return new TestRunDocument("run-" + number, KEY.id(), null, null, TestRunDocument.MAIN, NOW);
  }
}
