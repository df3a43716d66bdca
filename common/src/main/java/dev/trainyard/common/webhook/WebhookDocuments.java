package dev.trainyard.common.webhook;

import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.json.Timestamps;
import dev.trainyard.common.store.StoreIndexes.Declared;
import dev.trainyard.common.view.Collections;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.bson.conversions.Bson;

/**
 * The one owner of the webhook collections' shapes: every filter, update and index that the gateway
 * (endpoints and the log, on behalf of users) and the dispatcher (deliveries and endpoint health)
 * run against {@code webhook_endpoints} ({@link WebhookEndpoint}) and {@code webhook_deliveries}
 * ({@link WebhookDelivery}). Both services execute these, one through the reactive driver, one
 * through the synchronous one, so a field is named in one place. Timestamps are stored as ISO-8601
 * strings ({@link Timestamps}), which compare in time order.
 */
public final class WebhookDocuments {
  public static final String ID = "_id";
  public static final String ORG = "org";
  public static final String CREATED_AT = "createdAt";

  /** Endpoint fields. */
  public static final String DISABLED = "disabled";

  public static final String DISABLED_REASON = "disabledReason";
  public static final String FAILING_SINCE = "failingSince";
  public static final String SECRETS = "secrets";
  public static final String URL = "url";
  public static final String EVENT_TYPES = "eventTypes";
  public static final String DESCRIPTION = "description";
  public static final String FORMAT = "format";
  public static final String MENTIONS = "mentions";

  /** Delivery fields. */
  public static final String ENDPOINT_ID = "endpointId";

  public static final String STATUS = "status";
  public static final String ATTEMPTS = "attempts";
  public static final String NEXT_ATTEMPT_AT = "nextAttemptAt";
  public static final String LEASE_UNTIL = "leaseUntil";

  /** Who holds a delivery's claim: bookkeeping of the dispatcher, not part of the log entry. */
  public static final String LEASE_OWNER = "leaseOwner";

  private WebhookDocuments() {}

  public static Bson byId(String id) {
    return Filters.eq(ID, id);
  }

  public static Bson byIds(Collection<String> ids) {
    return Filters.in(ID, ids);
  }

  /** One endpoint or delivery of {@code org}: another organization's is not found. */
  public static Bson ownedBy(String id, String org) {
    return Filters.and(byId(id), Filters.eq(ORG, org));
  }

  // Endpoints

  public static Bson endpointsOf(String org) {
    return Filters.eq(ORG, org);
  }

  public static Bson enabledEndpointsOf(String org) {
    return Filters.and(endpointsOf(org), Filters.eq(DISABLED, false));
  }

  /** Endpoints are listed oldest first. */
  public static Bson endpointOrder() {
    return Sorts.ascending(CREATED_AT, ID);
  }

  /** Delivers to it again, its failure streak starting over. */
  public static Bson enable() {
    return Updates.combine(
        Updates.set(DISABLED, false),
        Updates.set(DISABLED_REASON, null),
        Updates.set(FAILING_SINCE, null));
  }

  /**
   * Sets the fields of {@code changes} (names of {@link WebhookEndpoint}: url, eventTypes,
   * description, format, mentions; a null value clears the field) and leaves the others.
   */
  public static Bson changed(Map<String, Object> changes) {
    return Updates.combine(
        changes.entrySet().stream().map(e -> Updates.set(e.getKey(), e.getValue())).toList());
  }

  public static Bson disable(String reason) {
    return Updates.combine(Updates.set(DISABLED, true), Updates.set(DISABLED_REASON, reason));
  }

  /** The endpoint while its secrets are still {@code read}, as stored: a compare-and-set. */
  public static Bson secretsStill(String id, List<?> read) {
    return Filters.and(byId(id), Filters.eq(SECRETS, read));
  }

  public static Bson secrets(List<EndpointSecret> secrets) {
    return Updates.set(SECRETS, secrets.stream().map(Json::document).toList());
  }

  /** The endpoint, while it is not failing: the first failure after a success starts a streak. */
  public static Bson healthy(String id) {
    return Filters.and(byId(id), Filters.eq(FAILING_SINCE, null));
  }

  public static Bson failing(String id) {
    return Filters.and(byId(id), Filters.ne(FAILING_SINCE, null));
  }

  public static Bson failingSince(Instant at) {
    return Updates.set(FAILING_SINCE, at == null ? null : Timestamps.format(at));
  }

  // Deliveries

  /** The indexes of the endpoints and the delivery log, each with the queries it serves. */
  public static final List<Declared> INDEXES =
      List.of(
          new Declared(
              Collections.WEBHOOK_ENDPOINTS, Indexes.ascending(ORG), "an organization's endpoints"),
          new Declared(
              Collections.WEBHOOK_DELIVERIES,
              Indexes.ascending(STATUS, NEXT_ATTEMPT_AT),
              "the dispatchers' poll for due deliveries"),
          new Declared(
              Collections.WEBHOOK_DELIVERIES,
              Indexes.compoundIndex(Indexes.ascending(ORG), Indexes.descending(CREATED_AT)),
              "listWebhookDeliveries: an organization's log, newest first"),
          new Declared(
              Collections.WEBHOOK_DELIVERIES,
              Indexes.ascending(STATUS, CREATED_AT),
              "the log's retention: ended deliveries older than the horizon"));

  /** The log of {@code org}, of one endpoint when {@code endpointId} is not null. */
  public static Bson deliveriesOf(String org, String endpointId) {
    return endpointId == null
        ? Filters.eq(ORG, org)
        : Filters.and(Filters.eq(ORG, org), Filters.eq(ENDPOINT_ID, endpointId));
  }

  /** The log is listed newest first. */
  public static Bson deliveryOrder() {
    return Sorts.orderBy(Sorts.descending(CREATED_AT), Sorts.ascending(ID));
  }

  /** The deliveries after ({@code createdAt}, {@code id}) in {@link #deliveryOrder()}. */
  public static Bson deliveriesAfter(Instant createdAt, String id) {
    String at = Timestamps.format(createdAt);
    return Filters.or(
        Filters.lt(CREATED_AT, at), Filters.and(Filters.eq(CREATED_AT, at), Filters.gt(ID, id)));
  }

  /** Due now: pending, and attempted again at once (what {@code redeliver} asks for). */
  public static Bson dueNow(Instant now) {
    return Updates.combine(
        Updates.set(STATUS, WebhookDelivery.PENDING),
        Updates.set(NEXT_ATTEMPT_AT, Timestamps.format(now)),
        Updates.set(LEASE_UNTIL, null));
  }

  /** Deliveries that ended (delivered or failed) before {@code before}; a pending one never. */
  public static Bson endedBefore(Instant before) {
    return Filters.and(
        Filters.in(STATUS, WebhookDelivery.DELIVERED, WebhookDelivery.FAILED),
        Filters.lt(CREATED_AT, Timestamps.format(before)));
  }

  /** Pending and due at {@code now}, held or not. */
  public static Bson due(Instant now) {
    return Filters.and(
        Filters.eq(STATUS, WebhookDelivery.PENDING),
        Filters.lte(NEXT_ATTEMPT_AT, Timestamps.format(now)));
  }

  /** Pending, due at {@code now}, and held by nobody (or by a claim that lapsed). */
  public static Bson dueAndFree(Instant now) {
    String at = Timestamps.format(now);
    return Filters.and(
        due(now), Filters.or(Filters.eq(LEASE_UNTIL, null), Filters.lte(LEASE_UNTIL, at)));
  }

  public static Bson dueOrder() {
    return Sorts.ascending(NEXT_ATTEMPT_AT);
  }

  public static Bson claim(String owner, Instant until) {
    return Updates.combine(
        Updates.set(LEASE_UNTIL, Timestamps.format(until)), Updates.set(LEASE_OWNER, owner));
  }

  public static Bson claimedBy(Collection<String> ids, String owner, Instant until) {
    return Filters.and(
        byIds(ids),
        Filters.eq(LEASE_OWNER, owner),
        Filters.eq(LEASE_UNTIL, Timestamps.format(until)));
  }

  /** Handed back unattempted, due at {@code next} (null: as it was). */
  public static Bson released(Instant next) {
    return next == null
        ? Updates.set(LEASE_UNTIL, null)
        : Updates.combine(
            Updates.set(NEXT_ATTEMPT_AT, Timestamps.format(next)), Updates.set(LEASE_UNTIL, null));
  }

  /** An attempt appended, and what follows it: delivered, failed, or pending until {@code next}. */
  public static Bson attempted(WebhookDelivery.Attempt attempt, String status, Instant next) {
    return Updates.combine(
        Updates.push(ATTEMPTS, Json.document(attempt)),
        Updates.set(STATUS, status),
        Updates.set(NEXT_ATTEMPT_AT, next == null ? null : Timestamps.format(next)),
        Updates.set(LEASE_UNTIL, null));
  }
}
