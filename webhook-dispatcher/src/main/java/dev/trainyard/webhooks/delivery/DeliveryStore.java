package dev.trainyard.webhooks.delivery;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import com.mongodb.client.model.WriteModel;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.webhook.WebhookDelivery;
import dev.trainyard.common.webhook.WebhookDocuments;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.bson.Document;
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
  }

  /**
   * Removes the deliveries that ended (delivered or failed) and were created before {@code before};
   * a pending one stays whatever its age. Answers how many went.
   */
  public long prune(Instant before) {
    return deliveries.deleteMany(WebhookDocuments.endedBefore(before)).getDeletedCount();
  }

  /** Records new deliveries; one recorded before (a redelivered event) is left as it is. */
  public void enqueue(List<WebhookDelivery> added) {
    if (added.isEmpty()) {
      return;
    }
    List<WriteModel<Document>> writes = new ArrayList<>();
    for (WebhookDelivery d : added) {
      writes.add(
          new UpdateOneModel<>(
              WebhookDocuments.byId(d.id()), Updates.setOnInsert(Json.document(d)), UPSERT));
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
        .find(WebhookDocuments.dueAndFree(now))
        .projection(new Document(WebhookDocuments.ID, 1))
        .sort(WebhookDocuments.dueOrder())
        .limit(limit)
        .forEach(d -> ids.add(d.getString(WebhookDocuments.ID)));
    if (ids.isEmpty()) {
      return List.of();
    }
    deliveries.updateMany(
        Filters.and(WebhookDocuments.byIds(ids), WebhookDocuments.dueAndFree(now)),
        WebhookDocuments.claim(owner, until));
    List<WebhookDelivery> claimed = new ArrayList<>();
    deliveries
        .find(WebhookDocuments.claimedBy(ids, owner, until))
        .forEach(d -> claimed.add(read(d)));
    return claimed;
  }

  /** When the pending delivery due the longest became due (none: nothing is due at {@code now}). */
  public Optional<Instant> oldestDue(Instant now) {
    Document first =
        deliveries
            .find(WebhookDocuments.due(now))
            .projection(new Document(WebhookDocuments.NEXT_ATTEMPT_AT, 1))
            .sort(WebhookDocuments.dueOrder())
            .first();
    return Optional.ofNullable(first)
        .map(d -> d.getString(WebhookDocuments.NEXT_ATTEMPT_AT))
        .map(Instant::parse);
  }

  /** Gives claimed deliveries back, due now, for whichever instance polls next. */
  public void release(List<String> ids) {
    if (!ids.isEmpty()) {
      deliveries.updateMany(WebhookDocuments.byIds(ids), WebhookDocuments.released(null));
    }
  }

  /** Appends an attempt and sets what follows: delivered, failed, or pending until {@code next}. */
  public void attempted(String id, WebhookDelivery.Attempt attempt, String status, Instant next) {
    attemptedAll(List.of(new Outcome(id, attempt, status, next)));
  }

  /** One attempt's record: the attempt, and the status and due time that follow it. */
  public record Outcome(String id, WebhookDelivery.Attempt attempt, String status, Instant next) {}

  /** Records many attempts in one round trip. */
  public void attemptedAll(List<Outcome> outcomes) {
    if (outcomes.isEmpty()) {
      return;
    }
    List<WriteModel<Document>> writes = new ArrayList<>();
    for (Outcome o : outcomes) {
      writes.add(
          new UpdateOneModel<>(
              WebhookDocuments.byId(o.id()),
              WebhookDocuments.attempted(o.attempt(), o.status(), o.next())));
    }
    deliveries.bulkWrite(writes);
  }

  /** Puts a delivery back without an attempt (its endpoint's circuit is open). */
  public void postpone(String id, Instant next) {
    deliveries.updateOne(WebhookDocuments.byId(id), WebhookDocuments.released(next));
  }

  private WebhookDelivery read(Document doc) {
    doc.remove(WebhookDocuments.LEASE_OWNER);
    return Json.mapper().convertValue(doc, WebhookDelivery.class);
  }
}
