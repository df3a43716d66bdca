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

  /** A version that writes no head (a setting changed): its queue document asks for the journal. */
  @Test
  void theEntryDocumentsAndTheOutboxAreNotJournaledTheQueueDocumentIs() {
    QueueStore queues = new QueueStore(mongo, QueueStore.DEFAULT_MAX_DOCUMENT_BYTES);
    OutboxStore outboxes = new OutboxStore(mongo);
    StoredQueue first = queueWithOnePr();
    Outbox outbox =
        new Outbox("o-1", KEY.id(), "org", 1, List.of(), List.of(), List.of(), List.of());
    recorded.forget();

    QueueStore.Prepared prepared =
        queues.prepare(List.of(first), List.of(StoredQueue.absent(KEY.id(), "org")));
    queues.writeEntries(prepared);
    outboxes.writeAll(List.of(outbox));
    assertThat(queues.saveAll(prepared)).isEmpty();
    outboxes.delete(List.of(outbox));

    assertThat(HistoryStore.writesCurrent(outbox)).isFalse();
    assertThat(writes())
        .containsExactly(
            Collections.QUEUE_ENTRIES + " unjournaled",
            Collections.OUTBOXES + " unjournaled",
            Collections.QUEUES + " journaled",
            Collections.OUTBOXES + " unjournaled");
  }

  /**
   * A submit's version writes its PR's head before anything acts on it: the queue document leaves
   * the journal to that write, so the poll waits for one commit, not two (ADR 0060). The store
   * holds every write whole once the heads' commit is made.
   */
  @Test
  void aQueueDocumentWhoseHeadsFollowLeavesTheJournalToThem() {
    QueueStore queues = new QueueStore(mongo, QueueStore.DEFAULT_MAX_DOCUMENT_BYTES);
    OutboxStore outboxes = new OutboxStore(mongo);
    HistoryStore history = new HistoryStore(mongo);
    StoredQueue first = queueWithOnePr();
    Outbox outbox =
        new Outbox("o-1", KEY.id(), "org", 1, List.of(row(1)), List.of(), List.of(), List.of());
    recorded.forget();

    QueueStore.Prepared prepared =
        queues.prepare(List.of(first), List.of(StoredQueue.absent(KEY.id(), "org")));
    queues.writeEntries(prepared);
    outboxes.writeAll(List.of(outbox));
    assertThat(queues.saveAllAheadOfAJournaledWrite(prepared)).isEmpty();
    history.write(List.of(outbox));

    assertThat(HistoryStore.writesCurrent(outbox)).isTrue();
    assertThat(writes())
        .containsExactly(
            Collections.QUEUE_ENTRIES + " unjournaled",
            Collections.OUTBOXES + " unjournaled",
            Collections.QUEUES + " unjournaled",
            Collections.PULL_REQUESTS + " unjournaled",
            Collections.PULL_REQUEST_HEADS + " journaled");
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

    Outbox outbox =
        new Outbox(
            "o-1",
            KEY.id(),
            "org",
            1,
            Stream.iterate(1L, n -> n + 1).limit(rows).map(JournaledWritesTest::row).toList(),
            Stream.iterate(1L, n -> n + 1).limit(runs).map(JournaledWritesTest::run).toList(),
            List.of(),
            List.of());
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
    Outbox outbox =
        new Outbox(
            "o-1",
            KEY.id(),
            "org",
            1,
            List.of(row(1), row(2)),
            List.of(run(1)),
            List.of(),
            List.of());
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
