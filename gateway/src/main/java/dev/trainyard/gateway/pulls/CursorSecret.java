package dev.trainyard.gateway.pulls;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import org.bson.Document;
import org.springframework.data.mongodb.core.FindAndModifyOptions;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.data.mongodb.core.query.Update;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The key that signs list cursors, shared by every gateway instance through MongoDB: the first
 * instance to start creates it, the others read the same one.
 */
@Component
public class CursorSecret {
  private static final String SETTINGS = "gateway_settings";
  private static final Duration FOREVER = Duration.ofDays(365L * 1000);
  private final Mono<byte[]> secret;

  public CursorSecret(ReactiveMongoTemplate mongo) {
    byte[] candidate = new byte[32];
    new SecureRandom().nextBytes(candidate);
    this.secret =
        mongo
            .findAndModify(
                Query.query(Criteria.where("_id").is("cursor-secret")),
                new Update().setOnInsert("value", Base64.getEncoder().encodeToString(candidate)),
                FindAndModifyOptions.options().upsert(true).returnNew(true),
                Document.class,
                SETTINGS)
            .map(doc -> Base64.getDecoder().decode(doc.getString("value")))
            // kept once read; a failed read (store away) is not cached, the next request retries
            .cache(value -> FOREVER, error -> Duration.ZERO, () -> Duration.ZERO);
  }

  public Mono<byte[]> get() {
    return secret;
  }
}
