package dev.trainyard.gateway.config;

import dev.trainyard.common.git.GitRemote;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.webhook.EndpointSecret;
import dev.trainyard.common.webhook.SecretBox;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.JsonResponses;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.data.mongodb.core.query.Update;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code POST /admin/v1/resealSecrets}: seals every stored secret again with the current key (the
 * second step of a key rotation, after every service runs with the new {@code
 * TRAINYARD_WEBHOOK_KEY} and the old one in {@code TRAINYARD_WEBHOOK_PREVIOUS_KEYS}; the previous
 * keys may go once it answers with no failures). Values sealed the old way (unbound) are sealed for
 * their place too. Each document is written only if it still holds what was read, so a secret
 * rotated meanwhile is not overwritten; running it again re-seals nothing twice.
 */
@Component
public class SecretsReseal {
  private static final Logger log = LoggerFactory.getLogger(SecretsReseal.class);
  private final ReactiveMongoTemplate mongo;
  private final SecretsAtRest secrets;

  public SecretsReseal(ReactiveMongoTemplate mongo, SecretsAtRest secrets) {
    this.mongo = mongo;
    this.secrets = secrets;
  }

  /** Answers {@code {keyId, resealed, alreadyCurrent, failed: [ids]}}. */
  public Mono<ServerResponse> reseal(ServerRequest request) {
    SecretBox box =
        secrets
            .box()
            .orElseThrow(
                () ->
                    ApiException.unavailable(
                        "no secrets can be sealed here: TRAINYARD_WEBHOOK_KEY is not set"));
    Tally tally = new Tally();
    return endpoints(box, tally)
        .then(remotes(box, tally))
        .then(
            Mono.defer(
                () -> {
                  Map<String, Object> answer = new LinkedHashMap<>();
                  answer.put("keyId", box.keyId());
                  answer.put("resealed", tally.resealed.get());
                  answer.put("alreadyCurrent", tally.current.get());
                  answer.put("failed", tally.failed());
                  return JsonResponses.ok(answer);
                }));
  }

  private Mono<Void> endpoints(SecretBox box, Tally tally) {
    return mongo
        .findAll(Document.class, Collections.WEBHOOK_ENDPOINTS)
        .concatMap(
            doc -> {
              String id = doc.getString("_id");
              List<Document> held = doc.getList("secrets", Document.class, List.of());
              List<Document> sealed = new ArrayList<>();
              int changed = 0;
              for (Document secret : held) {
                String value = secret.getString("encrypted");
                String again = again(box, value, EndpointSecret.place(id), tally, id);
                changed += Objects.equals(again, value) ? 0 : 1;
                sealed.add(new Document(secret).append("encrypted", again));
              }
              return changed > 0
                  ? write(
                      Collections.WEBHOOK_ENDPOINTS, id, "secrets", held, sealed, changed, tally)
                  : Mono.empty();
            })
        .then();
  }

  private Mono<Void> remotes(SecretBox box, Tally tally) {
    return mongo
        .findAll(Document.class, Collections.GIT_REMOTES)
        .concatMap(
            doc -> {
              String id = doc.getString("_id");
              Document repo = doc.get("repo", Document.class);
              OrgRepo orgRepo =
                  new OrgRepo(
                      doc.getString("org"),
                      new RepoRef(
                          repo.getString("host"), repo.getString("owner"), repo.getString("name")));
              return Flux.fromIterable(List.of("password", "privateKey"))
                  .filter(field -> doc.getString(field) != null)
                  .concatMap(
                      field -> {
                        String value = doc.getString(field);
                        String again =
                            again(box, value, GitRemote.place(orgRepo, field), tally, id);
                        return again.equals(value)
                            ? Mono.empty()
                            : write(Collections.GIT_REMOTES, id, field, value, again, 1, tally);
                      });
            })
        .then();
  }

  /**
   * {@code value} sealed with the current key for {@code place}; itself when it already is, or when
   * no key opens it (then its record is listed as failed).
   */
  private static String again(
      SecretBox box, String value, SecretBox.Place place, Tally tally, String id) {
    if (value == null) {
      tally.fail(id);
      return value;
    }
    if (box.isCurrent(value)) {
      tally.current.incrementAndGet();
      return value;
    }
    try {
      return box.seal(box.open(value, place), place);
    } catch (IllegalStateException e) {
      log.warn(
          "a secret of {} in {} could not be re-sealed: {}",
          id,
          place.collection(),
          e.getMessage());
      tally.fail(id);
      return value;
    }
  }

  /**
   * Writes {@code field} of document {@code id} only if it still holds {@code read}: {@code count}
   * secrets re-sealed, or, when the record changed meanwhile, listed as failed (run it again).
   */
  private Mono<Void> write(
      String collection,
      String id,
      String field,
      Object read,
      Object next,
      int count,
      Tally tally) {
    return mongo
        .updateFirst(
            Query.query(Criteria.where("_id").is(id).and(field).is(read)),
            new Update().set(field, next),
            collection)
        .doOnNext(
            result -> {
              if (result.getMatchedCount() == 1) {
                tally.resealed.addAndGet(count);
              } else {
                tally.fail(id);
              }
            })
        .then();
  }

  private static final class Tally {
    final AtomicInteger resealed = new AtomicInteger();
    final AtomicInteger current = new AtomicInteger();
    private final List<String> failed = new ArrayList<>();

    synchronized void fail(String id) {
      if (!failed.contains(id)) {
        failed.add(id);
      }
    }

    synchronized List<String> failed() {
      return List.copyOf(failed);
    }
  }
}
