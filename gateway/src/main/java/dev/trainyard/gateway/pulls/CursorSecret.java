package dev.trainyard.gateway.pulls;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicReference;
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
 * instance to need it creates it, the others read the same one. Kept once read; a failed read (the
 * store away) is not remembered, so the next request tries again.
 */
@Component
public class CursorSecret {
  private static final String SETTINGS = "gateway_settings";
  private final ReactiveMongoTemplate mongo;
  private final AtomicReference<byte[]> known = new AtomicReference<>();

  public CursorSecret(ReactiveMongoTemplate mongo) {
    this.mongo = mongo;
  }

  public Mono<byte[]> get() {
    byte[] secret = known.get();
    return secret != null ? Mono.just(secret) : load().doOnNext(known::set);
  }

  private Mono<byte[]> load() {
    byte[] candidate = new byte[32];
    new SecureRandom().nextBytes(candidate);
    return mongo
        .findAndModify(
            Query.query(Criteria.where("_id").is("cursor-secret")),
            new Update().setOnInsert("value", Base64.getEncoder().encodeToString(candidate)),
            FindAndModifyOptions.options().upsert(true).returnNew(true),
            Document.class,
            SETTINGS)
        .map(doc -> Base64.getDecoder().decode(doc.getString("value")));
  }
}
