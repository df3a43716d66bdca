package dev.trainyard.standalone.guarantees;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.model.Filters;
import dev.trainyard.common.command.CommandEnvelope;
import dev.trainyard.common.command.CommandReply;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.command.RejectionType;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.Priority;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.topic.TopicNames;
import dev.trainyard.common.topic.Topics;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.view.PullRequestRow;
import dev.trainyard.standalone.infra.DocumentStore;
import dev.trainyard.standalone.infra.FreePorts;
import dev.trainyard.standalone.infra.KafkaBroker;
import dev.trainyard.standalone.support.CrashAfterStore;
import dev.trainyard.worker.engine.Entry;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.QueueEngine;
import dev.trainyard.worker.processing.CommandProcessor;
import dev.trainyard.worker.processing.Fence;
import dev.trainyard.worker.processing.PollTelemetry;
import dev.trainyard.worker.processing.ProcessingProbe;
import dev.trainyard.worker.processing.Publisher;
import dev.trainyard.worker.projection.PublicEvents;
import dev.trainyard.worker.signals.ScmRefresher;
import dev.trainyard.worker.store.AnswerStore;
import dev.trainyard.worker.store.DeadCommandStore;
import dev.trainyard.worker.store.HistoryStore;
import dev.trainyard.worker.store.OutboxStore;
import dev.trainyard.worker.store.QueueCache;
import dev.trainyard.worker.store.QueueStore;
import dev.trainyard.worker.store.StoredQueue;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * What a worker must not trust. A command sent longer ago than a queue remembers applied commands
 * is kept dead, never applied. And a queue's partition moves from worker A to worker B and back (a
 * rolling restart, a scale change, a pause past the session timeout). Whatever B did to the queue
 * meanwhile, A's next answer is decided on it, never on the copy A kept from before: a command that
 * writes nothing is checked against the stored version like one that writes. Two processors on one
 * store and one real broker, no rebalance needed: the check must hold even before A's consumer
 * learns it lost the partition.
 */
class StaleInputTest {
  private static final QueueKey KEY = QueueKey.of("org", "github.com", "acme", "rocket", "main");

  private static Path dir;
  private static KafkaBroker broker;
  private static KafkaTemplate<String, String> kafka;

  private DocumentStore documents;
  private MongoClient client;
  private MongoTemplate mongo;
  private Worker a;
  private Worker b;

  @BeforeAll
  static void startBroker() throws Exception {
    dir = Files.createTempDirectory("stale-input");
    broker = KafkaBroker.start(dir.resolve("kafka"), FreePorts.next(), FreePorts.next());
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(Topics.QUEUE_REPLIES, 1, (short) 1),
                  new NewTopic(Topics.EVENTS, 1, (short) 1)))
          .all()
          .get();
    }
    kafka =
        new KafkaTemplate<>(
            new DefaultKafkaProducerFactory<>(
                Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class)));
  }

  @AfterAll
  static void stopBroker() {
    kafka.destroy();
    broker.close();
  }

  @BeforeEach
  void start() {
    documents = DocumentStore.inMemory();
    client = MongoClients.create(documents.uri("trainyard"));
    mongo = new MongoTemplate(client, "trainyard");
    a = new Worker(mongo);
    b = new Worker(mongo);
  }

  @AfterEach
  void stop() {
    client.close();
    documents.close();
  }

  @Test
  void aResubmitAfterTheOtherWorkerCancelledEnqueuesThePullRequestAgain() {
    a.send(new QueueCommand.CreateQueue(QueueMode.SINGLE, 1));
    a.send(new QueueCommand.SubmitPullRequest(7, null, false));
    b.send(new QueueCommand.CancelPullRequest(7));
    assertThat(enqueued()).isEmpty();

    CommandReply back = a.send(new QueueCommand.SubmitPullRequest(7, null, false));

    assertThat(back.isAccepted()).isTrue();
    assertThat(enqueued()).as("the pull request is in the queue again").containsExactly(7L);
  }

  @Test
  void aCancelAfterTheOtherWorkerSubmittedFindsThePullRequest() {
    a.send(new QueueCommand.CreateQueue(QueueMode.SINGLE, 1));
    b.send(new QueueCommand.SubmitPullRequest(8, null, false));

    CommandReply back = a.send(new QueueCommand.CancelPullRequest(8));

    assertThat(back.isAccepted()).as("%s", back).isTrue();
    assertThat(enqueued()).isEmpty();
  }

  @Test
  void aCommandOlderThanTheDeduplicationWindowIsKeptDeadNotApplied() {
    a.send(new QueueCommand.CreateQueue(QueueMode.SINGLE, 1));

    CommandReply old =
        a.send(
            new QueueCommand.SubmitPullRequest(9, null, false),
            Instant.now().minus(StoredQueue.RECENT_WINDOW).minusSeconds(60));

    assertThat(old.rejection()).isEqualTo(RejectionType.FAULT);
    assertThat(enqueued()).isEmpty();
    assertThat(mongo.getCollection(Collections.DEAD_COMMANDS).countDocuments()).isEqualTo(1);
  }

  /**
   * The effect runner hears of a version once it is stored, before its reply and events are sent
   * and its outbox deleted (ADR 0048): a landing does not wait for the broker. What it is handed is
   * already the stored version, which a new owner would derive the same effects from.
   */
  @Test
  void aStoredVersionAsksForItsEffectsBeforeItIsPublished() {
    QueueStore queues = new QueueStore(mongo, QueueStore.DEFAULT_MAX_DOCUMENT_BYTES);
    OutboxStore outboxes = new OutboxStore(mongo);
    Worker worker =
        new Worker(
            mongo,
            state -> {
              StoredQueue stored = queues.load(KEY.id()).orElseThrow();
              return "effects of "
                  + state.entries().stream().map(Entry::prNumber).toList()
                  + ", stored "
                  + stored.aggregate().entries().stream().map(Entry::prNumber).toList()
                  + (stored.outboxId() != null && outboxes.find(stored.outboxId()).isPresent()
                      ? ", unpublished"
                      : ", published");
            });
    worker.send(new QueueCommand.CreateQueue(QueueMode.SINGLE, 1));
    worker.steps.clear();

    worker.send(new QueueCommand.SubmitPullRequest(7, null, false));

    assertThat(worker.steps).containsExactly("effects of [7], stored [7], unpublished", "reply");
  }

  /**
   * A fenced worker decides a command the new owner already applied and published, on its old copy:
   * its write loses, and the outbox it wrote first is deleted (before: it had the winner's outbox
   * id, re-created it after the winner had published and deleted it, and left it behind).
   */
  @Test
  void aFencedWorkersOutboxForACommandTheOwnerAppliedIsNeverLeftBehind() {
    b.send(new QueueCommand.CreateQueue(QueueMode.SINGLE, 1));
    String id = UUID.randomUUID().toString();
    QueueCommand submit = new QueueCommand.SubmitPullRequest(5, null, false);
    a.send(submit, Instant.now(), id);
    a.send(new QueueCommand.SubmitPullRequest(6, null, false));

    CommandReply again = b.send(submit, Instant.now(), id);

    assertThat(again.isAccepted()).isTrue();
    assertThat(enqueued()).containsExactly(5L, 6L);
    assertThat(mongo.getCollection(Collections.OUTBOXES).countDocuments()).isZero();
  }

  /**
   * A poll holding [resubmit #5 → accepted, no change; cancel #5 → accepted] crashes after its
   * version is stored and before its offsets are committed. The redelivery is answered from what
   * was remembered: the resubmit is not decided again after the cancel (before: it was, and #5
   * landed although its cancel was answered 200).
   */
  @Test
  void aRedeliveredNoOpIsNotDecidedAgainAfterTheCommandThatFollowedIt() {
    a.send(new QueueCommand.CreateQueue(QueueMode.SINGLE, 1));
    a.send(new QueueCommand.SubmitPullRequest(5, null, false));
    List<CommandEnvelope> poll =
        List.of(
            envelope(new QueueCommand.SubmitPullRequest(5, null, null)),
            envelope(new QueueCommand.CancelPullRequest(5)));

    List<CommandReply> answers = crashedThenRedelivered(poll, QueueCommand.CancelPullRequest.class);

    assertThat(answers).extracting(CommandReply::rejection).containsExactly(null, null);
    assertThat(enqueued()).as("cancelled, as its answer said").isEmpty();
  }

  /**
   * A poll holding [cancel #5 → not found; submit #5 → accepted] crashes after its version is
   * stored. Redelivered, the cancel is still not found (before: it was decided again after the
   * submit and cancelled #5, whose submit had been answered 200).
   */
  @Test
  void aRedeliveredRejectionIsNotDecidedAgainAfterTheCommandThatFollowedIt() {
    a.send(new QueueCommand.CreateQueue(QueueMode.SINGLE, 1));
    List<CommandEnvelope> poll =
        List.of(
            envelope(new QueueCommand.CancelPullRequest(5)),
            envelope(new QueueCommand.SubmitPullRequest(5, null, false)));

    List<CommandReply> answers = crashedThenRedelivered(poll, QueueCommand.SubmitPullRequest.class);

    assertThat(answers)
        .extracting(CommandReply::rejection)
        .containsExactly(RejectionType.NOT_FOUND, null);
    assertThat(enqueued()).as("submitted, as its answer said").containsExactly(5L);
  }

  /**
   * Worker A stores version v (a resubmit raising #5's priority: a new row of the same submission)
   * and is paused before it publishes; the new owner B publishes v from its outbox and writes v + 1
   * (cancel #5); then A, released, publishes v. The read model stays at v + 1: the head says
   * cancelled (before: A rolled it back to waiting), and one row of #5 is open (before: A reopened
   * the row v + 1 had closed, and the PR was listed twice).
   */
  @Test
  void aPausedWorkerPublishingAnOlderVersionNeverTakesTheReadModelBack() throws Exception {
    a.send(new QueueCommand.CreateQueue(QueueMode.SINGLE, 1));
    a.send(new QueueCommand.SubmitPullRequest(5, null, null));
    CountDownLatch stored = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Worker paused =
        new Worker(
            mongo,
            e -> {
              stored.countDown();
              await(release);
            });
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      Future<CommandReply> late =
          thread.submit(
              () -> paused.send(new QueueCommand.SubmitPullRequest(5, Priority.HIGH, null)));
      assertThat(stored.await(30, TimeUnit.SECONDS)).isTrue();

      assertThat(b.send(new QueueCommand.CancelPullRequest(5)).isAccepted()).isTrue();
      release.countDown();
      assertThat(late.get(30, TimeUnit.SECONDS).isAccepted()).isTrue();
    } finally {
      thread.shutdownNow();
    }

    Document head =
        mongo
            .getCollection(Collections.PULL_REQUEST_HEADS)
            .find(Filters.eq("_id", PullRequestRow.headId(KEY.id(), 5)))
            .first();
    assertThat(Json.mapper().convertValue(head, PullRequestRow.class).state())
        .isEqualTo(PrState.CANCELLED);
    assertThat(
            mongo
                .getCollection(Collections.PULL_REQUESTS)
                .countDocuments(
                    Filters.and(Filters.eq("prNumber", 5), Filters.eq("toVersion", null))))
        .as("rows of #5 still open")
        .isEqualTo(1);
  }

  /**
   * An effect result started in an ownership epoch before the one this worker took the queue in is
   * refused undecided (a previous owner's effect may have raced this worker's own); one of this
   * worker's epoch is decided.
   */
  @Test
  void anEffectResultOfAPreviousOwnersEpochIsNeverDecided() {
    a.send(new QueueCommand.CreateQueue(QueueMode.SINGLE, 1));
    a.send(new QueueCommand.SubmitPullRequest(5, null, null));
    Worker owner = new Worker(mongo, ProcessingProbe.NONE, e -> e.epoch() != null && e.epoch() < 7);

    owner.processor.process(List.of(envelope(new QueueCommand.CancelPullRequest(5)).withEpoch(3L)));
    assertThat(owner.replies).as("refused undecided, nothing answered").isEmpty();
    assertThat(enqueued()).containsExactly(5L);

    owner.processor.process(List.of(envelope(new QueueCommand.CancelPullRequest(5)).withEpoch(7L)));
    assertThat(enqueued()).isEmpty();
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Hands {@code poll} to a worker that crashes after storing the version of the first command of
   * type {@code crashAt}, then the same poll again (the broker's redelivery); the second answers.
   */
  private List<CommandReply> crashedThenRedelivered(
      List<CommandEnvelope> poll, Class<? extends QueueCommand> crashAt) {
    CrashAfterStore crash = new CrashAfterStore(e -> crashAt.isInstance(e.command()));
    Worker crashing = new Worker(mongo, crash);
    assertThatThrownBy(() -> crashing.processor.process(poll))
        .hasMessageContaining("simulated consumer crash");
    assertThat(crash.crashes()).isEqualTo(1);
    assertThat(crashing.replies).as("nothing was answered before the crash").isEmpty();
    crashing.processor.process(poll);
    return poll.stream().map(crashing::answerTo).toList();
  }

  private static CommandEnvelope envelope(QueueCommand command) {
    return new CommandEnvelope(
        UUID.randomUUID().toString(), UUID.randomUUID().toString(), KEY, Instant.now(), command);
  }

  private List<Long> enqueued() {
    return new QueueStore(mongo, QueueStore.DEFAULT_MAX_DOCUMENT_BYTES)
        .load(KEY.id()).orElseThrow().aggregate().entries().stream().map(Entry::prNumber).toList();
  }

  /** One worker: its own processor (and so its own cache of queues) on the shared store. */
  private static final class Worker {
    private final List<CommandReply> replies = new CopyOnWriteArrayList<>();
    private final CommandProcessor processor;

    /** What happened, in order: "reply", and what {@code afterwards} noted. */
    private final List<String> steps = new CopyOnWriteArrayList<>();

    Worker(MongoTemplate mongo) {
      this(mongo, ProcessingProbe.NONE);
    }

    Worker(MongoTemplate mongo, ProcessingProbe probe) {
      this(mongo, probe, Fence.NONE, state -> "effects");
    }

    Worker(MongoTemplate mongo, ProcessingProbe probe, Fence fence) {
      this(mongo, probe, fence, state -> "effects");
    }

    /**
     * A worker whose effect runner is {@code afterwards}; what it returns goes to {@link #steps}.
     */
    Worker(MongoTemplate mongo, Function<QueueAggregate, String> afterwards) {
      this(mongo, ProcessingProbe.NONE, Fence.NONE, afterwards);
    }

    private Worker(
        MongoTemplate mongo,
        ProcessingProbe probe,
        Fence fence,
        Function<QueueAggregate, String> afterwards) {
      Publisher publisher =
          new Publisher(kafka, TopicNames.DEFAULT) {
            @Override
            public CompletableFuture<?> reply(Reply reply) {
              steps.add("reply");
              replies.add(reply.body());
              return super.reply(reply);
            }
          };
      this.processor =
          new CommandProcessor(
              new QueueStore(mongo, QueueStore.DEFAULT_MAX_DOCUMENT_BYTES),
              new OutboxStore(mongo),
              new AnswerStore(mongo),
              new HistoryStore(mongo),
              new DeadCommandStore(mongo, new SimpleMeterRegistry()),
              publisher,
              new PublicEvents("http://trainyard.test"),
              InstantSource.system(),
              probe,
              ScmRefresher.NONE,
              state -> steps.add(afterwards.apply(state)),
              new QueueEngine(),
              PollTelemetry.off(),
              fence,
              new QueueCache(QueueCache.DEFAULT_MAX_BYTES));
    }

    /** Handles the command as one poll and returns its reply. */
    CommandReply send(QueueCommand command) {
      return send(command, Instant.now());
    }

    CommandReply send(QueueCommand command, Instant sentAt) {
      return send(command, sentAt, UUID.randomUUID().toString());
    }

    CommandReply send(QueueCommand command, Instant sentAt, String commandId) {
      String correlation = UUID.randomUUID().toString();
      CommandEnvelope envelope = new CommandEnvelope(commandId, correlation, KEY, sentAt, command);
      processor.process(List.of(envelope));
      return answerTo(envelope);
    }

    CommandReply answerTo(CommandEnvelope envelope) {
      return replies.stream()
          .filter(r -> r.correlationId().equals(envelope.correlationId()))
          .findFirst()
          .orElseThrow();
    }
  }
}
