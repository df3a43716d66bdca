package dev.trainyard.gateway.config;

import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import dev.trainyard.common.store.StoreIndexes;
import dev.trainyard.common.store.StoreIndexes.Declared;
import dev.trainyard.common.view.Collections;
import dev.trainyard.gateway.audit.AuditLog;
import dev.trainyard.gateway.auth.Sessions;
import dev.trainyard.gateway.idempotency.IdempotencyKeys;
import dev.trainyard.gateway.pulls.ImpactedTargetsStore;
import dev.trainyard.gateway.sso.PendingSignIns;
import java.time.Duration;
import java.util.List;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.mongodb.ReactiveMongoDatabaseFactory;
import reactor.core.publisher.Mono;

/**
 * The indexes of the collections the gateway writes, each with the queries it serves, built off its
 * start ({@link StoreIndexes}).
 */
@Configuration(proxyBeanMethods = false)
public class GatewayIndexes {
  /** How long one index build is awaited before it counts as not built yet (and is retried). */
  private static final Duration WAIT = Duration.ofMinutes(10);

  public static final List<Declared> DECLARED =
      List.of(
          new Declared(
              Collections.GITHUB_DELIVERIES,
              Indexes.ascending("state", "retryAt"),
              "the inbox sweep: deliveries due for another attempt"),
          Declared.expiring(
              Collections.GITHUB_DELIVERIES,
              "expiresAt",
              Duration.ZERO,
              "a delivery dropped once it is no longer kept"),
          new Declared(
              Collections.GITHUB_DELIVERIES,
              Indexes.ascending("digest"),
              // deliveries stored before the digest was kept have none
              new IndexOptions().unique(true).sparse(true),
              "the same signed body under another delivery id is stored once"),
          new Declared(
              Collections.GITHUB_DELIVERIES,
              Indexes.ascending("pushed", "at"),
              // only deliveries of pushes to pull requests have it
              new IndexOptions().sparse(true),
              "a comment command refused when its PR was pushed to after it was written"),
          Declared.expiring(
              dev.trainyard.gateway.scm.github.GithubRedeliveries.CLAIMS,
              "expiresAt",
              Duration.ZERO,
              "a replica's claim to ask GitHub for a failed delivery again"),
          Declared.expiring(
              Sessions.COLLECTION, "expiresAt", Duration.ZERO, "a dashboard session's lifetime"),
          Declared.expiring(
              PendingSignIns.COLLECTION,
              "expiresAt",
              Duration.ZERO,
              "a sign-in's 10 minutes at its identity provider"),
          Declared.expiring(
              IdempotencyKeys.COLLECTION, "expiresAt", Duration.ZERO, "a kept answer's 24 h"),
          new Declared(
              AuditLog.COLLECTION,
              Indexes.compoundIndex(
                  Indexes.ascending("org"), Indexes.descending("at"), Indexes.ascending("_id")),
              "listAuditEvents: an organization's events, newest first"),
          new Declared(
              AuditLog.COLLECTION,
              Indexes.compoundIndex(
                  Indexes.ascending("org", "repo.host", "repo.owner", "repo.name", "prNumber"),
                  Indexes.descending("at")),
              "a PR's page: who acted on it, newest first"),
          Declared.expiring(
              AuditLog.COLLECTION, "expiresAt", Duration.ZERO, "TRAINYARD_AUDIT_RETENTION"),
          new Declared(
              AuditLog.COLLECTION,
              Indexes.ascending(AuditLog.PENDING),
              // only the few not announced yet carry the field
              new IndexOptions().sparse(true),
              "the announcement sweep: audit events not announced to webhooks yet"),
          Declared.expiring(
              IdempotencyKeys.QUOTA_COLLECTION,
              "expiresAt",
              Duration.ZERO,
              "an organization's count of keys for one UTC day"),
          new Declared(
              Collections.IMPACTED_TARGETS,
              Indexes.ascending("digest", "index"),
              "a stored target list's chunks, in order (testing details)"),
          Declared.expiring(
              Collections.IMPACTED_TARGETS,
              "storedAt",
              ImpactedTargetsStore.KEPT,
              "a target list no submission stored again within the period"));

  @Bean
  SmartInitializingSingleton gatewayIndexesBuilt(ReactiveMongoDatabaseFactory mongo) {
    return () -> StoreIndexes.ensureInBackground(target(mongo), DECLARED);
  }

  /** The gateway's database through the reactive driver, awaited on the builder's own thread. */
  private static StoreIndexes.Target target(ReactiveMongoDatabaseFactory mongo) {
    return new StoreIndexes.Target() {
      @Override
      public void createIndex(String collection, Bson keys, IndexOptions options) {
        mongo
            .getMongoDatabase()
            .flatMap(db -> Mono.from(db.getCollection(collection).createIndex(keys, options)))
            .block(WAIT);
      }

      @Override
      public void runCommand(Document command) {
        mongo.getMongoDatabase().flatMap(db -> Mono.from(db.runCommand(command))).block(WAIT);
      }
    };
  }
}
