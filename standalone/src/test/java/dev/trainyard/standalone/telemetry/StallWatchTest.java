package dev.trainyard.standalone.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.trainyard.common.json.Timestamps;
import dev.trainyard.common.view.Collections;
import dev.trainyard.standalone.infra.DocumentStore;
import dev.trainyard.worker.signals.StallWatch;
import dev.trainyard.worker.store.QueueStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * The stall watch on a real document store: it counts the waiting and the stalled queues of its own
 * partitions only, and names the stalled ones in a WARN line when one more stalls and again once
 * the threshold has passed, not on every round; a queue whose deadline passed 5 minutes ago (a run
 * past its testing timeout the ticker did not fail) counts as overdue.
 */
class StallWatchTest {
  private static final Duration AFTER = Duration.ofMinutes(30);
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
  private final AtomicReference<Instant> now = new AtomicReference<>(NOW);
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
  private MongoClient client;
  private MongoTemplate mongo;
  private StallWatch watch;

  @BeforeEach
  void start() {
    client = MongoClients.create(DocumentStore.inMemory().uri("trainyard"));
    mongo = new MongoTemplate(client, "trainyard");
    watch =
        new StallWatch(
            new QueueStore(mongo, QueueStore.DEFAULT_MAX_DOCUMENT_BYTES),
            () -> id -> !id.startsWith("other/"),
            now::get,
            AFTER);
    watch.register(meters);
    lines.start();
    ((Logger) LoggerFactory.getLogger(StallWatch.class)).addAppender(lines);
  }

  @AfterEach
  void stop() {
    ((Logger) LoggerFactory.getLogger(StallWatch.class)).detachAppender(lines);
    client.close();
  }

  @Test
  void countsItsOwnQueuesAndNamesTheStalledOnesWhenTheyChange() {
    queue("acme/ci-silent", NOW.minus(Duration.ofMinutes(40)));
    queue("acme/testing", NOW.minus(Duration.ofMinutes(10)));
    queue("acme/idle", null);
    queue("other/ci-silent", NOW.minus(Duration.ofHours(3))); // another worker's partition

    watch.check();
    assertThat(gauge("trainyard.queues.stalled")).isEqualTo(1);
    assertThat(gauge("trainyard.queues.waiting")).isEqualTo(2);
    assertThat(warnings()).singleElement().asString().endsWith(": acme/ci-silent");

    now.set(NOW.plus(Duration.ofMinutes(5)));
    watch.check();
    assertThat(warnings()).as("the same stalled queue, named 5 minutes ago").hasSize(1);

    now.set(NOW.plus(Duration.ofMinutes(21))); // acme/testing has waited 31 minutes
    watch.check();
    assertThat(gauge("trainyard.queues.stalled")).isEqualTo(2);
    assertThat(warnings()).hasSize(2);
    assertThat(warnings().get(1))
        .startsWith("2 queue(s) stalled")
        .endsWith(": acme/ci-silent, acme/testing");

    queue("acme/ci-silent", null); // a PR of it merged: the wait ended
    queue("acme/testing", null);
    watch.check();
    assertThat(gauge("trainyard.queues.stalled")).isZero();
    assertThat(gauge("trainyard.queues.waiting")).isZero();
    assertThat(warnings()).hasSize(2);
  }

  @Test
  void countsTheQueuesWhoseDeadlinePassedMinutesAgoAndNamesThem() {
    deadline("acme/run-past-timeout", NOW.minus(Duration.ofMinutes(6)));
    deadline("acme/due-now", NOW.minus(Duration.ofSeconds(30))); // the next tick takes it
    deadline("acme/later", NOW.plus(Duration.ofMinutes(20)));
    deadline("other/run-past-timeout", NOW.minus(Duration.ofHours(1)));

    watch.check();
    assertThat(gauge("trainyard.queues.overdue")).isEqualTo(1);
    assertThat(gauge("trainyard.queues.stalled")).isZero();
    assertThat(warnings())
        .singleElement()
        .asString()
        .startsWith("1 queue(s) overdue")
        .endsWith(": acme/run-past-timeout");

    deadline("acme/run-past-timeout", NOW.plus(Duration.ofMinutes(30))); // the tick failed it
    watch.check();
    assertThat(gauge("trainyard.queues.overdue")).isZero();
  }

  private void deadline(String id, Instant nextDeadline) {
    upsert(
        new Document("_id", id)
            .append("org", "acme-org")
            .append("nextDeadline", Timestamps.format(nextDeadline)));
  }

  private void queue(String id, Instant waitingSince) {
    Document doc = new Document("_id", id).append("org", "acme-org");
    if (waitingSince != null) {
      doc.append("waitingSince", Timestamps.format(waitingSince));
    }
    upsert(doc);
  }

  private void upsert(Document doc) {
    String id = doc.getString("_id");
    mongo
        .getCollection(Collections.QUEUES)
        .replaceOne(
            new Document("_id", id),
            doc,
            new com.mongodb.client.model.ReplaceOptions().upsert(true));
  }

  private double gauge(String name) {
    return meters.get(name).gauge().value();
  }

  private List<String> warnings() {
    return lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }
}
