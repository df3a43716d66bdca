package dev.trainyard.gateway.audit;

import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.gateway.config.GatewayProperties;
import dev.trainyard.gateway.http.Keyset;
import java.time.Instant;
import java.util.Date;
import java.util.UUID;
import org.bson.Document;
import org.springframework.data.domain.Sort;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.data.mongodb.core.query.Update;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The {@code audit_events} collection, its one owner: events written once, never changed, dropped
 * by the store {@code TRAINYARD_AUDIT_RETENTION} (default 90 days) after they happened, read newest
 * first with keyset paging.
 */
@Component
public class AuditLog {
  public static final String COLLECTION = "audit_events";

  /** Set on an event not yet announced as {@code audit_event.recorded}; a sparse index holds it. */
  public static final String PENDING = "announcePending";

  private final ReactiveMongoTemplate mongo;
  private final GatewayProperties props;

  public AuditLog(ReactiveMongoTemplate mongo, GatewayProperties props) {
    this.mongo = mongo;
    this.props = props;
  }

  /** What a listing asks for; every field but {@code org} and {@code take} may be null. */
  public record Filter(
      String org,
      RepoRef repo,
      String targetBranch,
      Long prNumber,
      String actor,
      String action,
      Instant since,
      Instant until,
      Position after,
      int take) {}

  /** Where a page ended: the last event's time and id. */
  public record Position(Instant at, String id) {}

  /**
   * Stores {@code event}; with {@code announce}, marked for announcement to the organization's
   * webhooks (the outbox's mark, cleared once announced).
   */
  public Mono<AuditEvent> record(AuditEvent event, boolean announce) {
    AuditEvent stored = event.id() == null ? withId(event) : event;
    Document doc = document(stored);
    if (announce) {
      doc.append(PENDING, Date.from(stored.at()));
    }
    // applied before the answer, durable with the next journaled write or read, or the store's own
    // commit within a second (ADR 0044): no commit of its own before the answer; on a replica set
    // the majority acknowledgement stays
    return mongo
        .getCollection(COLLECTION)
        .flatMap(
            c ->
                Mono.from(
                    c.withWriteConcern(c.getWriteConcern().withJournal(false)).insertOne(doc)))
        .thenReturn(stored);
  }

  private static AuditEvent withId(AuditEvent e) {
    return new AuditEvent(
        UUID.randomUUID().toString(),
        e.org(),
        e.at(),
        e.actor(),
        e.via(),
        e.action(),
        e.repo(),
        e.targetBranch(),
        e.prNumber(),
        e.ip(),
        e.userAgent(),
        e.status(),
        e.outcome());
  }

  /** The events {@code filter} selects, newest first, at most {@code take}. */
  public Flux<AuditEvent> list(Filter filter) {
    Criteria where = Criteria.where("org").is(filter.org());
    if (filter.repo() != null) {
      where = where.and("repo.host").is(filter.repo().host());
      where = where.and("repo.owner").is(filter.repo().owner());
      where = where.and("repo.name").is(filter.repo().name());
    }
    if (filter.targetBranch() != null) {
      where = where.and("targetBranch").is(filter.targetBranch());
    }
    if (filter.prNumber() != null) {
      where = where.and("prNumber").is(filter.prNumber());
    }
    if (filter.actor() != null) {
      where = where.and("actor.id").is(filter.actor());
    }
    if (filter.action() != null) {
      where = where.and("action").is(filter.action());
    }
    if (filter.since() != null || filter.until() != null) {
      Criteria at = Criteria.where("at");
      if (filter.since() != null) {
        at = at.gte(Date.from(filter.since()));
      }
      if (filter.until() != null) {
        at = at.lt(Date.from(filter.until()));
      }
      where = new Criteria().andOperator(where, at);
    }
    if (filter.after() != null) {
      where = Keyset.after(where, "at", true, Date.from(filter.after().at()), filter.after().id());
    }
    Query query =
        Query.query(where)
            .with(Sort.by(Sort.Order.desc("at"), Sort.Order.asc("_id")))
            .limit(filter.take());
    return mongo.find(query, Document.class, COLLECTION).map(AuditLog::event);
  }

  /** Marks {@code event} announced: the sweep leaves it alone from now on. */
  public Mono<Void> announced(AuditEvent event) {
    return mongo
        .updateFirst(
            Query.query(Criteria.where("_id").is(event.id())),
            new Update().unset(PENDING),
            COLLECTION)
        .then();
  }

  /**
   * Events recorded before {@code before} and not announced yet, oldest first, at most {@code
   * take}.
   */
  public Flux<AuditEvent> unannounced(Instant before, int take) {
    Query query =
        Query.query(Criteria.where(PENDING).lt(Date.from(before)))
            .with(Sort.by(Sort.Order.asc(PENDING)))
            .limit(take);
    return mongo.find(query, Document.class, COLLECTION).map(AuditLog::event);
  }

  /** The newest events of one PR of {@code queue}, for its page's timeline. */
  public Flux<AuditEvent> ofPull(QueueKey queue, long prNumber, int take) {
    return list(
        new Filter(
            queue.org(),
            queue.repo(),
            queue.branch(),
            prNumber,
            null,
            null,
            null,
            null,
            null,
            take));
  }

  private Document document(AuditEvent e) {
    Document doc =
        new Document("_id", e.id())
            .append("org", e.org())
            .append("at", Date.from(e.at()))
            .append("expiresAt", Date.from(e.at().plus(props.audit().retention())))
            .append(
                "actor",
                new Document("id", e.actor().id())
                    .append("name", e.actor().name())
                    .append("role", e.actor().role()))
            .append("via", e.via())
            .append("action", e.action())
            .append("status", e.status());

    if (e.repo() != null) {
      doc.append(
          "repo",
          new Document("host", e.repo().host())
              .append("owner", e.repo().owner())
              .append("name", e.repo().name()));
    }
    doc.append("targetBranch", e.targetBranch())
        .append("prNumber", e.prNumber())
        .append("ip", e.ip())
        .append("userAgent", e.userAgent())
        .append("outcome", e.outcome());
    return doc;
  }

  private static AuditEvent event(Document d) {
    Document actor = d.get("actor", Document.class);
    Document repo = d.get("repo", Document.class);
    Number pr = d.get("prNumber", Number.class);
    return new AuditEvent(
        d.getString("_id"),
        d.getString("org"),
        d.getDate("at").toInstant(),
        new AuditEvent.Actor(
            actor.getString("id"), actor.getString("name"), actor.getString("role")),
        d.getString("via"),
        d.getString("action"),
        repo == null
            ? null
            : new RepoRef(repo.getString("host"), repo.getString("owner"), repo.getString("name")),
        d.getString("targetBranch"),
        pr == null ? null : pr.longValue(),
        d.getString("ip"),
        d.getString("userAgent"),
        d.getInteger("status", 0),
        d.getString("outcome"));
  }
}
