package dev.trainyard.worker.signals;

import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.event.EventHeaders;
import dev.trainyard.common.event.TestResultsEvent;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.common.view.Collections;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.kafka.annotation.KafkaListener;
import tools.jackson.core.JacksonException;

/**
 * Turns the flaky-tests service's {@code test_results.classified} events into {@link
 * QueueCommand.RecordTestResults} on each queue of the organization on that repository
 * (SCHEDULING.md "Flake-aware failures"): the queue learns which red runs failed only on
 * quarantined or flaky tests from events, never by calling the service. Each command's id is
 * derived from the event and the queue, so an event read again after a crash is applied once; the
 * offsets are committed only after the broker has the commands.
 */
public class TestResultsIntake {
  static final String ID = "trainyard-test-results";
  private static final Logger log = LoggerFactory.getLogger(TestResultsIntake.class);
  private final MongoTemplate mongo;
  private final Signals signals;

  public TestResultsIntake(MongoTemplate mongo, Signals signals) {
    this.mongo = mongo;
    this.signals = signals;
  }

  @KafkaListener(
      id = ID,
      topics = "#{@topicNames.events()}",
      groupId = "${trainyard.worker.results-group-id:#{@topicNames.group('queue-worker-results')}}",
      batch = "true")
  public void onEvents(List<ConsumerRecord<String, String>> records) {
    List<CompletableFuture<?>> sent = new ArrayList<>();
    for (ConsumerRecord<String, String> record : records) {
      String org = EventHeaders.value(record, EventHeaders.ORG);
      String eventId = EventHeaders.value(record, EventHeaders.EVENT_ID);
      if (!TestResultsEvent.TYPE.equals(EventHeaders.value(record, EventHeaders.TYPE))
          || org == null
          || eventId == null) {
        continue;
      }
      TestResultsEvent event;
      try {
        event = Json.mapper().readValue(record.value(), TestResultsEvent.class);
      } catch (JacksonException | IllegalArgumentException e) {
        log.warn("skipping an unreadable test results event at offset {}", record.offset(), e);
        continue;
      }
      if (event.repository() == null || event.commitSha() == null) {
        continue;
      }
      QueueCommand command =
          new QueueCommand.RecordTestResults(
              event.commitSha(),
              event.failedTests(),
              event.unexcusedFailures(),
              event.excusedByPrs() == null ? List.of() : event.excusedByPrs());
      // a store that cannot answer fails the batch, which is read again
      for (QueueKey key : queues(org, event.repository())) {
        sent.add(signals.send(key, command, commandId(eventId, key)));
      }
    }
    // a command the broker did not take fails the batch, which is read again
    CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).join();
  }

  static String commandId(String eventId, QueueKey key) {
    return UUID.nameUUIDFromBytes((eventId + "@" + key.id()).getBytes(StandardCharsets.UTF_8))
        .toString();
  }

  /**
   * The organization's queues on {@code repo}, its owner and name compared without case (an upload
   * names the repository as its CI spells it); the organization and host match exactly.
   */
  private List<QueueKey> queues(String org, RepoRef repo) {
    String pattern = QueueKey.repositoryIdPattern(org, repo, true);
    Query query = Query.query(Criteria.where("_id").regex(pattern).and("view").ne(null));
    query.fields().include("aggregate.key");
    return mongo.find(query, Document.class, Collections.QUEUES).stream()
        .map(
            doc ->
                Json.mapper()
                    .convertValue(doc.get("aggregate", Document.class).get("key"), QueueKey.class))
        .toList();
  }
}
