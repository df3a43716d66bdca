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

  /**
   * Removes the deliveries that ended (delivered or failed) and were created before {@code before};
   * a pending one stays whatever its age. Answers how many went.
   */
  public long prune(Instant before) {
    return deliveries
        .deleteMany(
            Filters.and(
                Filters.in("status", WebhookDelivery.DELIVERED, WebhookDelivery.FAILED),
                Filters.lt("createdAt", Timestamps.format(before))))
        .getDeletedCount();
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

  /**
   * Claims up to {@code limit} pending deliveries due at {@code now} that nobody holds (oldest due
   * first) for {@code owner} until {@code until}, and returns the ones this call got: three round
   * trips whatever the batch, and two instances never get the same delivery.
   */
  public List<WebhookDelivery> claimDue(Instant now, Instant until, String owner, int limit) {
    List<String> ids = new ArrayList<>();
    deliveries
        .find(Filters.and(Filters.eq("status", WebhookDelivery.PENDING), dueAndFree(now)))
        .projection(new Document("_id", 1))
        .sort(new Document("nextAttemptAt", 1))
        .limit(limit)
        .forEach(d -> ids.add(d.getString("_id")));
    if (ids.isEmpty()) {
      return List.of();
    }
    String lease = Timestamps.format(until);
    deliveries.updateMany(
        Filters.and(
            Filters.in("_id", ids), Filters.eq("status", WebhookDelivery.PENDING), dueAndFree(now)),
        Updates.combine(Updates.set("leaseUntil", lease), Updates.set("leaseOwner", owner)));
    List<WebhookDelivery> claimed = new ArrayList<>();
    deliveries
        .find(
            Filters.and(
                Filters.in("_id", ids),
                Filters.eq("leaseOwner", owner),
                Filters.eq("leaseUntil", lease)))
        .forEach(d -> claimed.add(read(d)));
    return claimed;
  }

  /** Gives claimed deliveries back, due now, for whichever instance polls next. */
  public void release(List<String> ids) {
    if (!ids.isEmpty()) {
      deliveries.updateMany(Filters.in("_id", ids), Updates.set("leaseUntil", null));
    }
  }

  /** Appends an attempt and sets what follows: delivered, failed, or pending until {@code next}. */
  public void attempted(String id, WebhookDelivery.Attempt attempt, String status, Instant next) {
    attemptedAll(List.of(new Outcome(id, attempt, status, next)));
  }

  /** One attempt's record: the attempt, and the status and due time that follow it. */
  public record Outcome(String id, WebhookDelivery.Attempt attempt, String status, Instant next) {}

  /** Records many attempts in one round trip. */
  @SuppressWarnings("unchecked")
  public void attemptedAll(List<Outcome> outcomes) {
    if (outcomes.isEmpty()) {
      return;
    }
    List<WriteModel<Document>> writes = new ArrayList<>();
    for (Outcome o : outcomes) {
      writes.add(
          new UpdateOneModel<>(
              Filters.eq("_id", o.id()),
              Updates.combine(
                  Updates.push(
                      "attempts", new Document(Json.mapper().convertValue(o.attempt(), Map.class))),
                  Updates.set("status", o.status()),
                  Updates.set(
                      "nextAttemptAt", o.next() == null ? null : Timestamps.format(o.next())),
                  Updates.set("leaseUntil", null))));
    }
    deliveries.bulkWrite(writes);
  }

  /** Puts a delivery back without an attempt (its endpoint's circuit is open). */
  public void postpone(String id, Instant next) {
    deliveries.updateOne(
        Filters.eq("_id", id),
        Updates.combine(
            Updates.set("nextAttemptAt", Timestamps.format(next)),
            Updates.set("leaseUntil", null)));
  }

  private static Bson dueAndFree(Instant now) {
    String at = Timestamps.format(now);
    return Filters.and(
        Filters.lte("nextAttemptAt", at),
        Filters.or(Filters.eq("leaseUntil", null), Filters.lte("leaseUntil", at)));
  }

  private WebhookDelivery read(Document doc) {
    doc.remove("leaseOwner"); // bookkeeping of the claim, not part of the log entry
    return Json.mapper().convertValue(doc, WebhookDelivery.class);
  }
}
