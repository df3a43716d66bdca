package dev.trainyard.gateway.scm.github;

import dev.trainyard.common.github.GithubClient;
import dev.trainyard.common.view.Collections;
import dev.trainyard.gateway.config.PeriodicSweep;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;

/**
 * Deliveries GitHub failed to make, asked for again (API.md §6): GitHub never retries a delivery
 * its receiver did not answer, so a {@code /trainyard merge} comment or a label sent while the
 * gateway was down or unreachable would be lost; CI results are read back by the worker's
 * reconciler, commands cannot be. Every {@code TRAINYARD_GITHUB_REDELIVERY_INTERVAL} (default 1
 * minute; 0 turns it off), each replica lists the App's failed delivery attempts ({@code GET
 * /app/hook/deliveries?status=failure}, page after page back to {@link #LOOKBACK}) and asks GitHub
 * to send again ({@code POST /app/hook/deliveries/{id}/attempts}) each one of the last {@link
 * #LOOKBACK} that no attempt delivered, that is not in the inbox (a delivery GitHub counted failed
 * may have arrived), and that trainyard did not refuse on purpose (a bad signature, a body too
 * large): at most {@link #MAX_REDELIVERIES} times per delivery, claimed in {@code
 * github_redeliveries} so replicas do not ask twice.
 */
@Component
public class GithubRedeliveries extends PeriodicSweep {
  private static final Logger log = LoggerFactory.getLogger(GithubRedeliveries.class);

  /** How far back failed deliveries are sent again. */
  static final Duration LOOKBACK = Duration.ofHours(6);

  /** Pages of failed attempts read per sweep: 1,000 attempts. */
  static final int MAX_PAGES = 10;

  /** Redeliveries asked for per delivery. */
  static final int MAX_REDELIVERIES = 3;

  /** Answers of the receiver that another attempt would get again. */
  private static final Set<Integer> REFUSED_ON_PURPOSE = Set.of(400, 401, 413);

  public static final String CLAIMS = "github_redeliveries";

  private final GithubClient client;
  private final ReactiveMongoTemplate mongo;
  private final InstantSource clock;

  public GithubRedeliveries(
      GithubApp app,
      ReactiveMongoTemplate mongo,
      InstantSource clock,
      @Value("${trainyard.github.redelivery-interval:1m}") Duration interval) {
    super(interval);
    this.client = app.client().orElse(null);
    this.mongo = mongo;
    this.clock = clock;
  }

  @Override
  protected boolean sweeps() {
    return client != null && super.sweeps();
  }

  /** Asks GitHub to send again each failed delivery that is due; completes with how many. */
  @Override
  protected Mono<Integer> sweepOnce() {
    if (client == null) {
      return Mono.just(0);
    }
    return Mono.fromCallable(this::failed)
        .subscribeOn(Schedulers.boundedElastic())
        .flatMapMany(attempts -> Flux.fromIterable(due(attempts)))
        .concatMap(this::redeliver)
        .reduce(0, Integer::sum)
        .onErrorResume(
            e -> {
              log.warn("could not ask GitHub for failed deliveries: {}", e.toString());
              return Mono.just(0);
            });
  }

  /**
   * The App's failed delivery attempts of the last {@link #LOOKBACK}, newest first: page after page
   * ({@code Link}'s {@code rel="next"}, a cursor), at most {@link #MAX_PAGES} pages.
   */
  private List<JsonNode> failed() {
    Instant since = clock.instant().minus(LOOKBACK);
    List<JsonNode> attempts = new java.util.ArrayList<>();
    String page = "/app/hook/deliveries?status=failure&per_page=100";
    for (int read = 0; read < MAX_PAGES && page != null; read++) {
      GithubClient.Answer answer = client.asApp("GET", page, null);
      if (!answer.ok() || !answer.body().isArray()) {
        log.info("GitHub did not list the App's failed deliveries (HTTP {})", answer.status());
        break;
      }
      boolean older = false;
      for (JsonNode attempt : answer.body()) {
        attempts.add(attempt);
        older |= deliveredAt(attempt).isBefore(since);
      }
      page = older ? null : answer.next().orElse(null);
    }
    return attempts;
  }

  private static Instant deliveredAt(JsonNode attempt) {
    return Instant.parse(attempt.path("delivered_at").asString(Instant.EPOCH.toString()));
  }

  /** The newest failed attempt of each delivery to send again, and how many were asked before. */
  private record Due(String guid, long attempt, int redelivered) {}

  private List<Due> due(List<JsonNode> attempts) {
    Instant since = clock.instant().minus(LOOKBACK);
    Map<String, Due> newest = new HashMap<>();
    Set<String> refused = new HashSet<>();
    for (JsonNode attempt : attempts) {
      String guid = attempt.path("guid").asString("");
      int status = attempt.path("status_code").asInt(0);
      Instant at = deliveredAt(attempt);
      if (guid.isEmpty() || at.isBefore(since) || status / 100 == 2) {
        continue;
      }
      if (REFUSED_ON_PURPOSE.contains(status)) {
        refused.add(guid);
      }
      Due known = newest.get(guid);
      int redelivered =
          (known == null ? 0 : known.redelivered())
              + (attempt.path("redelivery").asBoolean(false) ? 1 : 0);
      long id = known == null ? attempt.path("id").asLong() : known.attempt();
      newest.put(guid, new Due(guid, id, redelivered));
    }
    return newest.values().stream()
        .filter(d -> !refused.contains(d.guid()) && d.redelivered() < MAX_REDELIVERIES)
        .toList();
  }

  /** 1 when this replica asked GitHub to send {@code due} again, else 0. */
  private Mono<Integer> redeliver(Due due) {
    Query stored = Query.query(Criteria.where("_id").is(due.guid()));
    String claimId = due.guid() + "#" + due.redelivered();
    Document claim =
        new Document("_id", claimId)
            .append("expiresAt", java.util.Date.from(clock.instant().plus(LOOKBACK)));
    Mono<Integer> ask =
        mongo
            .insert(claim, CLAIMS)
            .then(
                Mono.fromCallable(
                        () ->
                            client.asApp(
                                "POST",
                                "/app/hook/deliveries/" + due.attempt() + "/attempts",
                                null))
                    .subscribeOn(Schedulers.boundedElastic()))
            .flatMap(
                asked -> {
                  if (asked.status() == 202) {
                    log.info("asked GitHub to send failed delivery {} again", due.guid());
                    return Mono.just(1);
                  }
                  log.info(
                      "GitHub did not send delivery {} again (HTTP {}): {}",
                      due.guid(),
                      asked.status(),
                      asked.message());
                  return release(claimId);
                })
            .onErrorResume(DuplicateKeyException.class, e -> Mono.just(0)) // another replica's
            .onErrorResume(
                e -> {
                  log.info(
                      "could not ask GitHub for delivery {} again: {}", due.guid(), e.toString());
                  return release(claimId);
                });
    return mongo
        .exists(stored, Collections.GITHUB_DELIVERIES)
        .flatMap(arrived -> arrived ? Mono.just(0) : ask)
        .onErrorResume(e -> Mono.just(0));
  }

  /** Gives up a claim GitHub did not act on, so the next sweep asks again. */
  private Mono<Integer> release(String claimId) {
    return mongo
        .remove(Query.query(Criteria.where("_id").is(claimId)), CLAIMS)
        .thenReturn(0)
        .onErrorReturn(0);
  }
}
