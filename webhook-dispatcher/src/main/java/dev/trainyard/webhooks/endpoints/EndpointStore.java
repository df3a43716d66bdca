package dev.trainyard.webhooks.endpoints;

import com.mongodb.client.MongoCollection;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.webhook.WebhookDocuments;
import dev.trainyard.common.webhook.WebhookEndpoint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * The endpoints the gateway wrote, read by organization or id; their health is written here. The
 * shapes are {@link WebhookDocuments}'.
 */
public class EndpointStore {
  private final MongoCollection<Document> endpoints;

  public EndpointStore(MongoTemplate mongo) {
    this.endpoints = mongo.getCollection(Collections.WEBHOOK_ENDPOINTS);
  }

  /** The enabled endpoints of {@code org}. */
  public List<WebhookEndpoint> enabled(String org) {
    List<WebhookEndpoint> found = new ArrayList<>();
    endpoints.find(WebhookDocuments.enabledEndpointsOf(org)).forEach(d -> found.add(read(d)));
    return found;
  }

  /** The endpoints with these ids, by id (one round trip). */
  public Map<String, WebhookEndpoint> find(Collection<String> ids) {
    Map<String, WebhookEndpoint> found = new HashMap<>();
    endpoints
        .find(WebhookDocuments.byIds(ids))
        .forEach(
            d -> {
              WebhookEndpoint e = read(d);
              found.put(e.id(), e);
            });
    return found;
  }

  /** Remembers when the current run of failures began (the first failure after a success). */
  public void failed(String id, Instant at) {
    endpoints.updateOne(WebhookDocuments.healthy(id), WebhookDocuments.failingSince(at));
  }

  public void succeeded(String id) {
    endpoints.updateOne(WebhookDocuments.failing(id), WebhookDocuments.failingSince(null));
  }

  public void disable(String id, String reason) {
    endpoints.updateOne(WebhookDocuments.byId(id), WebhookDocuments.disable(reason));
  }

  private WebhookEndpoint read(Document doc) {
    return Json.mapper().convertValue(doc, WebhookEndpoint.class);
  }
}
