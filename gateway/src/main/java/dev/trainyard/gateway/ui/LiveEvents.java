package dev.trainyard.gateway.ui;

import dev.trainyard.common.event.EventHeaders;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.topic.TopicNames;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import tools.jackson.databind.JsonNode;

/**
 * Every event the services publish, as it happens, for the dashboard's open pages: each gateway
 * replica reads every partition of the events topic itself (assigned, from the end, in no consumer
 * group, committing nothing), so a page on any replica hears of a change made through any other.
 * Partitions added later are picked up within {@link #REDISCOVER}. A page gets only a signal — the
 * organization, queue and PR it concerns — and reads what changed through its session.
 */
@Component
public class LiveEvents implements SmartLifecycle {
  static final Duration REDISCOVER = Duration.ofSeconds(30);
  private static final Logger log = LoggerFactory.getLogger(LiveEvents.class);
  private static final Duration POLL = Duration.ofMillis(100);

  private final ConsumerFactory<String, String> consumers;
  private final TopicNames topics;
  private final Sinks.Many<Change> changes = Sinks.many().multicast().directBestEffort();
  private volatile boolean running;
  private volatile Consumer<String, String> consumer;
  private Thread reader;

  /**
   * What changed: {@code queue} is the queue's id ({@code QueueKey#id}) for a merge-queue event (a
   * PR's, or the queue's own: {@code queue.frozen}, …), else null; {@code prNumber} the PR, else 0;
   * {@code type} the event type.
   */
  public record Change(String org, String queue, long prNumber, String type) {}

  public LiveEvents(ConsumerFactory<String, String> consumers, TopicNames topics) {
    this.consumers = consumers;
    this.topics = topics;
  }

  /** Changes from now on (none are kept for a page that subscribes later). */
  public Flux<Change> changes() {
    return changes.asFlux();
  }

  /** What a record says changed; null for a record that is not a readable event. */
  static Change parse(String org, String type, String body) {
    if (org == null || type == null) {
      return null;
    }
    String queue = null;
    long pr = 0;
    try {
      JsonNode event = Json.mapper().readTree(body);
      JsonNode repo = event.path("repository");
      boolean ofQueue = type.startsWith("pull_request") || type.startsWith("queue.");
      if (ofQueue && repo.has("host") && event.has("target_branch")) {
        queue =
            org
                + "/"
                + repo.path("host").asString()
                + "/"
                + repo.path("owner").asString()
                + "/"
                + repo.path("name").asString()
                + ":"
                + event.path("target_branch").asString();
        pr = event.path("pr_number").asLong(0);
      }
    } catch (RuntimeException e) {
      return new Change(org, null, 0, type);
    }
    return new Change(org, queue, pr, type);
  }

  @Override
  public synchronized void start() {
    running = true;
    reader = new Thread(this::read, "dashboard-events");
    reader.setDaemon(true);
    reader.start();
  }

  private void read() {
    Properties overrides = new Properties();
    overrides.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    overrides.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
    // under the gateway's own group prefix, which its Kafka ACLs name; nothing is ever committed
    String group = topics.group("gateway-dashboard-" + UUID.randomUUID());
    try (Consumer<String, String> c = consumers.createConsumer(group, "dashboard", "", overrides)) {
      consumer = c;
      long discovered = 0;
      while (running) {
        if (System.nanoTime() - discovered > REDISCOVER.toNanos() || c.assignment().isEmpty()) {
          assign(c);
          discovered = System.nanoTime();
        }
        if (c.assignment().isEmpty()) {
          Thread.sleep(1_000);
          continue;
        }
        ConsumerRecords<String, String> polled = c.poll(POLL);
        if (changes.currentSubscriberCount() == 0) {
          continue; // no dashboard listens: nothing to parse
        }
        for (ConsumerRecord<String, String> record : polled) {
          Change change =
              parse(
                  EventHeaders.value(record, EventHeaders.ORG),
                  EventHeaders.value(record, EventHeaders.TYPE),
                  record.value());
          if (change != null) {
            changes.tryEmitNext(change);
          }
        }
      }
    } catch (WakeupException e) {
      // stopping
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      log.warn("the dashboard's event reader stopped: {}", e.toString());
    }
  }

  /** Reads every partition the topic has now; new ones from their end. */
  private void assign(Consumer<String, String> c) {
    List<org.apache.kafka.common.PartitionInfo> found;
    try {
      found = c.partitionsFor(topics.events(), Duration.ofSeconds(1));
    } catch (RuntimeException e) {
      return;
    }
    if (found == null || found.isEmpty()) {
      return;
    }
    Set<TopicPartition> all =
        found.stream()
            .map(p -> new TopicPartition(topics.events(), p.partition()))
            .collect(Collectors.toSet());
    if (all.equals(c.assignment())) {
      return;
    }
    Set<TopicPartition> added =
        all.stream().filter(p -> !c.assignment().contains(p)).collect(Collectors.toSet());
    c.assign(all);
    c.seekToEnd(added);
  }

  @Override
  public synchronized void stop() {
    running = false;
    Consumer<String, String> c = consumer;
    if (c != null) {
      c.wakeup();
    }
    if (reader != null) {
      try {
        reader.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }
}
