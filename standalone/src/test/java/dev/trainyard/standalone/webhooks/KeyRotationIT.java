package dev.trainyard.standalone.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import dev.trainyard.common.git.GitRemote;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.webhook.EndpointSecret;
import dev.trainyard.common.webhook.SecretBox;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.TestStack;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A key rotation (README's threat model): the services run with the new {@code
 * TRAINYARD_WEBHOOK_KEY} and the old one in {@code TRAINYARD_WEBHOOK_PREVIOUS_KEYS}; {@code
 * resealSecrets} seals every stored secret again with the new key, after which the old key opens
 * none of them and the new one alone opens all.
 */
class KeyRotationIT extends OwnStack {
  private static final String OLD = SecretBox.newKey();
  private static final String NEW = SecretBox.newKey();
  private static final String STRANGER = SecretBox.newKey();

  @Override
  protected Map<String, Object> properties() {
    return Map.of("trainyard.webhook.key", NEW, "trainyard.webhook.previous-keys", OLD);
  }

  @Test
  void aRotationResealsEverySecretWithTheNewKey() {
    SecretBox old = new SecretBox(OLD);
    String endpointId = "ep_rotation" + Api.uniqueRepo().replace("-", "");
    OrgRepo repo = new OrgRepo(TestStack.ORG, new RepoRef("github.com", "acme", Api.uniqueRepo()));
    String lost = "ep_lost" + Api.uniqueRepo().replace("-", "");
    try (MongoClient client = MongoClients.create(stack.infrastructure().mongoUri())) {
      var db = client.getDatabase("trainyard");
      MongoCollection<Document> endpoints = db.getCollection(Collections.WEBHOOK_ENDPOINTS);
      MongoCollection<Document> remotes = db.getCollection(Collections.GIT_REMOTES);
      endpoints.insertOne(
          endpoint(endpointId, old.seal("whsec_old", EndpointSecret.place(endpointId))));
      // sealed with a key no service has: reported, left as it is
      endpoints.insertOne(
          endpoint(lost, new SecretBox(STRANGER).seal("whsec_x", EndpointSecret.place(lost))));
      remotes.insertOne(
          Json.document(
              new GitRemote(
                  GitRemote.id(repo),
                  repo.org(),
                  repo.repo(),
                  "https://git.example.com/acme/x.git",
                  "bot",
                  old.seal("pw", GitRemote.place(repo, "password")),
                  null,
                  null,
                  Instant.now())));

      Api.Response first = stack.admin().post("/admin/v1/resealSecrets", "{}");
      assertThat(first.status()).as(first.body()).isEqualTo(200);
      JsonNode answer = first.json();
      SecretBox fresh = new SecretBox(NEW);
      assertThat(answer.get("keyId").asString()).isEqualTo(fresh.keyId());
      assertThat(answer.get("failed").toString()).contains(lost);
      assertThat(answer.get("resealed").asInt()).isGreaterThanOrEqualTo(2);

      String endpointSecret =
          endpoints
              .find(Filters.eq("_id", endpointId))
              .first()
              .getList("secrets", Document.class)
              .get(0)
              .getString("encrypted");
      String password =
          remotes.find(Filters.eq("_id", GitRemote.id(repo))).first().getString("password");
      assertThat(fresh.isCurrent(endpointSecret)).isTrue();
      assertThat(fresh.open(endpointSecret, EndpointSecret.place(endpointId)))
          .isEqualTo("whsec_old");
      assertThat(fresh.open(password, GitRemote.place(repo, "password"))).isEqualTo("pw");

      Api.Response again = stack.admin().post("/admin/v1/resealSecrets", "{}");
      assertThat(again.json().get("resealed").asInt()).as("nothing is sealed twice").isZero();
      assertThat(stack.api().post("/admin/v1/resealSecrets", "{}").status())
          .as("the admin's only")
          .isEqualTo(401);
      endpoints.deleteOne(Filters.eq("_id", lost)); // other tests' reseals stay clean
    }
  }

  private static Document endpoint(String id, String sealed) {
    return new Document("_id", id)
        .append("org", TestStack.ORG)
        .append("url", "http://127.0.0.1:9/" + id)
        .append(
            "secrets",
            List.of(
                new Document("encrypted", sealed).append("createdAt", Instant.now().toString())))
        .append("createdAt", Instant.now().toString())
        .append("disabled", false);
  }
}
