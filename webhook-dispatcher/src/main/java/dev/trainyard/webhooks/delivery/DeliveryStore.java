package dev.trainyard.webhooks.delivery;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import com.mongodb.client.model.WriteModel;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.json.Timestamps;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.webhook.WebhookDelivery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * The delivery log and the durable retry schedule in one: a pending delivery is due at {@code
 * nextAttemptAt}, and an instance claims it with a lease before attempting it, so two dispatchers
 * never attempt one delivery at once and a crashed one's claims lapse.
 */
public class DeliveryStore {
  private static final UpdateOptions UPSERT = new UpdateOptions().upsert(true);
  private final MongoCollection<Document> deliveries;

  public DeliveryStore(MongoTemplate mongo) {
    this.deliveries = mongo.getCollection(Collections.WEBHOOK_DELIVERIES);
    // serves the poll for due deliveries and the log by organization (MongoDB; the embedded
    // store ignores secondary indexes)
    deliveries.createIndex(Indexes.ascending("status", "nextAttemptAt"));
    deliveries.createIndex(
        Indexes.compoundIndex(Indexes.ascending("org"), Indexes.descending("createdAt")));
  }

  /** Records new deliveries; one recorded before (a redelivered event) is left as it is. */
  @SuppressWarnings("unchecked")
  public void enqueue(List<WebhookDelivery> added) {
    if (added.isEmpty()) {
      return;
    }
    List<WriteModel<Document>> writes = new ArrayList<>();
    for (WebhookDelivery d : added) {
      Document doc = new Document(Json.mapper().convertValue(d, Map.class));
      writes.add(new UpdateOneModel<>(Filters.eq("_id", d.id()), Updates.setOnInsert(doc), UPSERT));
    }
    deliveries.bulkWrite(writes);
  }

  /** Pending deliveries due at {@code now} that nobody holds, oldest due first. */
  public List<WebhookDelivery> due(Instant now, int limit) {
    List<WebhookDelivery> due = new ArrayList<>();
    deliveries
        .find(Filters.and(Filters.eq("status", WebhookDelivery.PENDING), dueAndFree(now)))
        .sort(new Document("nextAttemptAt", 1))
        .limit(limit)
        .forEach(d -> due.add(read(d)));
    return due;
  }

  /** Takes {@code id} until {@code until}; false when another instance holds it or it is done. */
  public boolean claim(String id, Instant now, Instant until) {
    return deliveries
            .updateOne(
                Filters.and(
                    Filters.eq("_id", id),
                    Filters.eq("status", WebhookDelivery.PENDING),
                    dueAndFree(now)),
                Updates.set("leaseUntil", Timestamps.format(until)))
            .getModifiedCount()
        == 1;
  }

  /** Appends an attempt and sets what follows: delivered, failed, or pending until {@code next}. */
  public void attempted(String id, WebhookDelivery.Attempt attempt, String status, Instant next) {
    deliveries.updateOne(
        Filters.eq("_id", id),
        Updates.combine(
            Updates.push("attempts", new Document(Json.mapper().convertValue(attempt, Map.class))),
            Updates.set("status", status),
            Updates.set("nextAttemptAt", next == null ? null : Timestamps.format(next)),
            Updates.set("leaseUntil", null)));
  }

  /** Puts a delivery back without an attempt (its endpoint's circuit is open). */
  public void postpone(String id, Instant next) {
    deliveries.updateOne(
        Filters.eq("_id", id),
        Updates.combine(
            Updates.set("nextAttemptAt", Timestamps.format(next)),
            Updates.set("leaseUntil", null)));
  }

  public Optional<WebhookDelivery> find(String id) {
    return Optional.ofNullable(deliveries.find(Filters.eq("_id", id)).first()).map(this::read);
  }

  private static Bson dueAndFree(Instant now) {
    String at = Timestamps.format(now);
    return Filters.and(
        Filters.lte("nextAttemptAt", at),
        Filters.or(Filters.eq("leaseUntil", null), Filters.lte("leaseUntil", at)));
  }

  private WebhookDelivery read(Document doc) {
    return Json.mapper().convertValue(doc, WebhookDelivery.class);
  }
}
