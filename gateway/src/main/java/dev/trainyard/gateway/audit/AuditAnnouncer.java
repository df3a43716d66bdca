package dev.trainyard.gateway.audit;

import dev.trainyard.common.event.EventHeaders;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.json.Timestamps;
import dev.trainyard.common.topic.TopicNames;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.webhook.WebhookDocuments;
import dev.trainyard.gateway.config.PeriodicSweep;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * Announces every audit event of an organization that has a webhook endpoint asking for them as
 * {@code audit_event.recorded} on {@code trainyard.events} (API.md §7), so its subscribers take it
 * (a SIEM, a chat channel); an organization without one costs nothing more than the audit write
 * (whether it has one is read at most every {@link #SUBSCRIBERS_KEPT}, at once after this replica
 * created an endpoint). The event's document is the outbox: it is stored marked {@link
 * AuditLog#PENDING}, announced right after without holding the answer up, and unmarked once the
 * broker has it; every replica also sweeps for marked events older than {@link #SWEEP_AFTER}, so
 * one whose announcement failed (a broker away, a replica stopped) is announced later. The
 * announcement's event id is the audit event's, so one announced twice (two replicas' sweeps, a
 * mark that was not cleared) is delivered once.
 */
@Component
public class AuditAnnouncer extends PeriodicSweep {
  public static final String TYPE = "audit_event.recorded";

  /**
   * How old an unannounced event must be before a sweep takes it (the first try had its chance).
   */
  static final Duration SWEEP_AFTER = Duration.ofSeconds(15);

  /** How long whether an organization has an audit subscriber is kept before it is read again. */
  static final Duration SUBSCRIBERS_KEPT = Duration.ofSeconds(10);

  private static final List<String> ASKING = List.of(TYPE, "audit_event.*");
  private static final Duration SWEEP_EVERY = Duration.ofSeconds(15);
  private static final Duration ACK = Duration.ofSeconds(5);
  private static final int SWEEP_BATCH = 200;
  private static final int MAX_REMEMBERED = 100_000;
  private static final Logger log = LoggerFactory.getLogger(AuditAnnouncer.class);

  private final KafkaTemplate<String, String> kafka;
  private final TopicNames topics;
  private final AuditLog auditLog;
  private final InstantSource clock;
  private final ReactiveMongoTemplate mongo;
  private final Map<String, Subscribed> subscribed = new ConcurrentHashMap<>();

  /** Whether an organization had an endpoint asking for audit events, and until when that holds. */
  private record Subscribed(boolean any, Instant until) {}

  public AuditAnnouncer(
      KafkaTemplate<String, String> kafka,
      TopicNames topics,
      AuditLog auditLog,
      InstantSource clock,
      ReactiveMongoTemplate mongo) {
    super(SWEEP_EVERY);
    this.kafka = kafka;
    this.topics = topics;
    this.auditLog = auditLog;
    this.clock = clock;
    this.mongo = mongo;
  }

  /** Whether {@code org}'s audit events are to be announced: an endpoint of it names them. */
  public Mono<Boolean> wanted(String org) {
    if (org == null) {
      return Mono.just(false); // an admin action on no organization: no subscriber to tell
    }
    Subscribed known = subscribed.get(org);
    if (known != null && known.until().isAfter(clock.instant())) {
      return Mono.just(known.any());
    }
    Query asking =
        Query.query(Criteria.where(WebhookDocuments.ORG).is(org).and("eventTypes").in(ASKING));
    return mongo
        .exists(asking, Collections.WEBHOOK_ENDPOINTS)
        .doOnNext(
            any -> {
              if (subscribed.size() > MAX_REMEMBERED) {
                subscribed.clear();
              }
              subscribed.put(org, new Subscribed(any, clock.instant().plus(SUBSCRIBERS_KEPT)));
            });
  }

  /** An endpoint of {@code org} was created here: read again whether it asks for audit events. */
  public void endpointsChanged(String org) {
    subscribed.remove(org);
  }

  /**
   * Announces {@code event} now, in the background: the answer the event records does not wait for
   * the broker; a failure is left to the sweep.
   */
  public void soon(AuditEvent event) {
    announce(event)
        .subscribe(
            null,
            e ->
                log.warn(
                    "audit event {} not announced yet (the sweep will): {}",
                    event.id(),
                    e.toString()));
  }

  Mono<Void> announce(AuditEvent event) {
    ObjectNode body = Json.mapper().createObjectNode();
    body.put("type", TYPE);
    body.put("timestamp", Timestamps.format(event.at()));
    body.set("audit_event", AuditHandler.item(event));
    ProducerRecord<String, String> record =
        new ProducerRecord<>(topics.events(), event.org(), body.toString());
    record.headers().add(EventHeaders.EVENT_ID, bytes("audit-" + event.id()));
    record.headers().add(EventHeaders.ORG, bytes(event.org()));
    record.headers().add(EventHeaders.TYPE, bytes(TYPE));
    return Mono.fromFuture(() -> kafka.send(record)).timeout(ACK).then(auditLog.announced(event));
  }

  @Override
  protected Mono<Void> sweepOnce() {
    return auditLog
        .unannounced(clock.instant().minus(SWEEP_AFTER), SWEEP_BATCH)
        .concatMap(this::announce)
        .then()
        .onErrorResume(
            e -> {
              log.warn("the audit announcement sweep stopped early: {}", e.toString());
              return Mono.empty();
            });
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
