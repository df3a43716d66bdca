package dev.trainyard.flaky.quarantine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trainyard.flaky.cases.QuarantineSetting;
import dev.trainyard.flaky.cases.TestCase;
import dev.trainyard.flaky.cases.TestCaseStore;
import dev.trainyard.flaky.classify.Health;
import dev.trainyard.flaky.classify.Status;
import dev.trainyard.flaky.events.EventPublisher;
import dev.trainyard.flaky.events.TestCaseEvent;
import dev.trainyard.flaky.http.ApiException;
import dev.trainyard.flaky.repo.Repo;
import dev.trainyard.flaky.repo.RepoSettingsStore;
import dev.trainyard.flaky.store.WireStore;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.common.KafkaException;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.http.HttpStatus;

/**
 * The override is written (version-checked) before its event is published: a lost race publishes
 * nothing, and an event that could not be published is published by the retry, with the same id.
 * Runs against an in-memory document store and a broker fake that records what it was given.
 */
class QuarantineHandlerTest {
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
  private static final String ORG = "acme";
  private static final Repo REPO = new Repo("github.com", "acme", "rocket");

  /** The broker: records what it acknowledged; refuses while {@code down}. */
  static final class RecordingBroker extends EventPublisher {
    final List<TestCaseEvent> published = new ArrayList<>();
    boolean down;

    RecordingBroker() {
      super(null, null);
    }

    @Override
    public void publish(List<TestCaseEvent> events) {
      if (down) {
        throw new KafkaException("the broker did not acknowledge the events");
      }
      published.addAll(events);
    }
  }

  private WireStore store;
  private TestCaseStore cases;
  private RecordingBroker broker;
  private QuarantineHandler handler;

  @BeforeEach
  void start() {
    store = new WireStore();
    MongoTemplate mongo = store.mongo();
    cases = new TestCaseStore(mongo);
    broker = new RecordingBroker();
    handler =
        new QuarantineHandler(
            cases,
            new RepoSettingsStore(mongo),
            broker,
            InstantSource.fixed(NOW),
            "http://localhost:8080");
  }

  @AfterEach
  void stop() {
    store.close();
  }

  private TestCase stored(String testId, QuarantineSetting setting, Health health) {
    TestCase tc =
        new TestCase(
            ORG,
            REPO.key(),
            testId,
            "t-" + testId,
            null,
            null,
            null,
            "",
            new Status(health, "because", NOW),
            List.of(),
            QuarantineSetting.UNSPECIFIED,
            0,
            null,
            1);
    cases.save(List.of(new TestCaseStore.Write(tc, "w", null)), NOW);
    if (setting != QuarantineSetting.UNSPECIFIED) {
      cases
          .collection()
          .updateOne(
              new Document("_id", TestCaseStore.id(ORG, testId)),
              new Document("$set", new Document("quarantine", setting.name())));
    }
    return current(testId);
  }

  private TestCase current(String testId) {
    return cases.find(ORG, REPO.key(), testId).orElseThrow();
  }

  @Test
  void aChangeThatLosesTheRaceIsA409AndPublishesNothing() {
    String id = UUID.randomUUID().toString();
    TestCase read = stored(id, QuarantineSetting.UNSPECIFIED, Health.FLAKY);
    handler.change(ORG, REPO, read, QuarantineSetting.ALWAYS_QUARANTINE, "noisy");
    assertThat(broker.published).hasSize(1);

    // a second request read the test case before the first one wrote it
    assertThatThrownBy(
            () -> handler.change(ORG, REPO, read, QuarantineSetting.NEVER_QUARANTINE, null))
        .isInstanceOfSatisfying(
            ApiException.class, e -> assertThat(e.status()).isEqualTo(HttpStatus.CONFLICT))
        .hasMessage("the quarantine setting of " + id + " changed meanwhile; retry");

    assertThat(broker.published).hasSize(1);
    assertThat(current(id).quarantine()).isEqualTo(QuarantineSetting.ALWAYS_QUARANTINE);
  }

  @Test
  void anEventThatCouldNotBePublishedIsPublishedByTheRetryWithTheSameId() {
    String id = UUID.randomUUID().toString();
    TestCase read = stored(id, QuarantineSetting.UNSPECIFIED, Health.FLAKY);
    broker.down = true;

    assertThatThrownBy(
            () -> handler.change(ORG, REPO, read, QuarantineSetting.ALWAYS_QUARANTINE, "noisy"))
        .isInstanceOf(KafkaException.class);
    assertThat(current(id).quarantine()).isEqualTo(QuarantineSetting.ALWAYS_QUARANTINE);
    TestCaseEvent pending = cases.pendingEvent(ORG, id).orElseThrow();

    broker.down = false;
    handler.change(ORG, REPO, current(id), QuarantineSetting.ALWAYS_QUARANTINE, "noisy");
    handler.change(ORG, REPO, current(id), QuarantineSetting.ALWAYS_QUARANTINE, "noisy");

    assertThat(broker.published).extracting(TestCaseEvent::id).containsExactly(pending.id());
    assertThat(broker.published.get(0).type()).isEqualTo(TestCaseEvent.QUARANTINE_CHANGED);
    assertThat(cases.pendingEvent(ORG, id)).isEmpty();
  }

  @ParameterizedTest(name = "auto_quarantine={0}")
  @ValueSource(booleans = {true, false})
  void theStoresQueryListsExactlyTheTestCasesTheRuleQuarantines(boolean auto) {
    Set<String> expected = new HashSet<>();
    for (QuarantineSetting setting : QuarantineSetting.values()) {
      for (Health health : Health.values()) {
        TestCase tc = stored(UUID.randomUUID().toString(), setting, health);
        if (tc.quarantined(auto)) {
          expected.add(tc.testId());
        }
      }
    }

    Set<String> listed = new HashSet<>();
    cases
        .collection()
        .find(QuarantinedFilter.of(auto))
        .forEach(doc -> listed.add(doc.getString("testId")));

    assertThat(listed).isEqualTo(expected).hasSize(auto ? 4 : 3);
  }
}
