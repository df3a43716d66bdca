package dev.trainyard.gateway.pulls;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import dev.trainyard.common.view.Collections;
import dev.trainyard.standalone.infra.DocumentStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;

/**
 * A stored impacted-target list is kept {@link ImpactedTargetsStore#KEPT} after the last submission
 * that stored it: its expiry field is the time of the store's clock, moved on by a later store.
 */
class ImpactedTargetsKeptTest {
  private static final Instant MONDAY = Instant.parse("2026-11-23T09:00:00Z");

  private DocumentStore store;
  private MongoClient client;
  private ReactiveMongoTemplate mongo;

  @BeforeEach
  void start() {
    store = DocumentStore.inMemory();
    client = MongoClients.create(store.uri("trainyard"));
    mongo = new ReactiveMongoTemplate(client, "trainyard");
  }

  @AfterEach
  void stop() {
    client.close();
    store.close();
  }

  @Test
  void theSameListStoredLaterIsKeptFromTheLaterStore() {
    List<String> targets = List.of("//b:test", "//a:test", "//a:test");
    new ImpactedTargetsStore(mongo, Clock.fixed(MONDAY, ZoneOffset.UTC)).store(targets).block();
    assertThat(storedAt()).containsExactly(Date.from(MONDAY));

    Instant later = MONDAY.plus(Duration.ofDays(20));
    new ImpactedTargetsStore(mongo, Clock.fixed(later, ZoneOffset.UTC)).store(targets).block();
    assertThat(storedAt()).containsExactly(Date.from(later));
  }

  private List<Date> storedAt() {
    return mongo
        .findAll(Document.class, Collections.IMPACTED_TARGETS)
        .map(d -> d.getDate("storedAt"))
        .collectList()
        .block();
  }
}
