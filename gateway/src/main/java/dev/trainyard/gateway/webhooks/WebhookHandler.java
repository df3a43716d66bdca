package dev.trainyard.gateway.webhooks;

import com.mongodb.client.model.Filters;
import com.mongodb.client.result.UpdateResult;
import com.mongodb.reactivestreams.client.MongoCollection;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.json.Timestamps;
import dev.trainyard.common.net.OutboundGuard;
import dev.trainyard.common.token.SignedToken;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.webhook.ChatFormat;
import dev.trainyard.common.webhook.EndpointSecret;
import dev.trainyard.common.webhook.EventTypeFilter;
import dev.trainyard.common.webhook.SecretBox;
import dev.trainyard.common.webhook.WebhookDelivery;
import dev.trainyard.common.webhook.WebhookDocuments;
import dev.trainyard.common.webhook.WebhookEndpoint;
import dev.trainyard.gateway.audit.AuditAnnouncer;
import dev.trainyard.gateway.auth.RouteGuard;
import dev.trainyard.gateway.config.GatewayProperties;
import dev.trainyard.gateway.config.SecretsAtRest;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.JsonResponses;
import dev.trainyard.gateway.http.RequestBody;
import dev.trainyard.gateway.pulls.CursorSecret;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;
import tools.jackson.databind.JsonNode;

/**
 * {@code /v1/webhooks/*}: create, list and delete endpoints, rotate a secret (the old one keeps
 * signing for {@value #GRACE_HOURS} hours, so receivers can switch without losing a delivery), page
 * through the delivery log and redeliver. Everything is scoped to the caller's organization;
 * another organization's endpoint or delivery is a 404.
 */
@Component
public class WebhookHandler {
  static final int GRACE_HOURS = 24;
  private static final int MAX_TYPES = 100;
  private static final int MAX_DESCRIPTION = 1_000;
  private static final int MAX_TAKE = 100;
  private static final int DEFAULT_TAKE = 50;
  private final ReactiveMongoTemplate mongo;
  private final CursorSecret cursorSecret;
  private final SecretsAtRest secrets;
  private final OutboundGuard guard;
  private final InstantSource clock;

  private final AuditAnnouncer audit;

  public WebhookHandler(
      ReactiveMongoTemplate mongo,
      CursorSecret cursorSecret,
      GatewayProperties props,
      SecretsAtRest secrets,
      InstantSource clock,
      AuditAnnouncer audit) {
    this.audit = audit;
    this.mongo = mongo;
    this.clock = clock;
    this.cursorSecret = cursorSecret;
    GatewayProperties.Webhook webhook = props.webhook();
    this.secrets = secrets;
    this.guard =
        OutboundGuard.resolving(
            OutboundGuard.Policy.webhooks(
                webhook.allowHttp(), webhook.allowLoopback(), props.outbound().allowedHosts()));
  }

  public Mono<ServerResponse> createEndpoint(ServerRequest request) {
    String org = RouteGuard.org(request.exchange());
    return JsonResponses.body(request)
        .flatMap(
            body -> {
              String url = body.url();
              List<String> types = eventTypes(body);
              String description = description(body).orElse(null);
              ChatFormat format =
                  body.optionalEnum("format", ChatFormat.class).orElse(ChatFormat.STANDARD);
              Map<String, String> mentions = mentions(body, format).orElse(null);
              return checked(url)
                  .then(
                      Mono.defer(
                          () -> {
                            String secret = SecretBox.newSecret();
                            Instant now = clock.instant();
                            String id = "ep_" + UUID.randomUUID().toString().replace("-", "");
                            WebhookEndpoint endpoint =
                                new WebhookEndpoint(
                                    id,
                                    org,
                                    url,
                                    types,
                                    description,
                                    List.of(
                                        new EndpointSecret(
                                            secrets.seal(secret, EndpointSecret.place(id)),
                                            now,
                                            null)),
                                    now,
                                    false,
                                    null,
                                    null,
                                    format.wire(),
                                    mentions);
                            Map<String, Object> shown = view(endpoint);
                            shown.put("secret", secret);
                            return endpoints()
                                .flatMap(c -> Mono.from(c.insertOne(Json.document(endpoint))))
                                // this replica announces the next audit event to it at once
                                .doOnSuccess(done -> audit.endpointsChanged(org))
                                .then(JsonResponses.ok(shown));
                          }));
            });
  }

  /**
   * Changes what an endpoint receives and where: {@code url}, {@code eventTypes}, {@code
   * description}, {@code format}, {@code mentions}; a field left out keeps its value, a {@code
   * null} clears {@code eventTypes} (every type), {@code description} or {@code mentions}. Its
   * secrets, its health and its delivery log stay; events recorded before the change are delivered
   * as they were recorded. Answers the endpoint as {@code listEndpoints} shows it.
   */
  public Mono<ServerResponse> updateEndpoint(ServerRequest request) {
    String org = RouteGuard.org(request.exchange());
    return JsonResponses.body(request)
        .flatMap(
            body -> {
              String id = body.name("id");
              Optional<String> url = body.has("url") ? Optional.of(body.url()) : Optional.empty();
              Map<String, Object> changes = new LinkedHashMap<>();
              url.ifPresent(u -> changes.put(WebhookDocuments.URL, u));
              if (body.has("eventTypes") || body.isExplicitNull("eventTypes")) {
                changes.put(WebhookDocuments.EVENT_TYPES, eventTypes(body));
              }
              if (body.has("description") || body.isExplicitNull("description")) {
                changes.put(WebhookDocuments.DESCRIPTION, description(body).orElse(null));
              }
              Optional<ChatFormat> format = body.optionalEnum("format", ChatFormat.class);
              format.ifPresent(f -> changes.put(WebhookDocuments.FORMAT, f.wire()));
              if (changes.isEmpty() && !body.has("mentions") && !body.isExplicitNull("mentions")) {
                throw ApiException.badRequest(
                    "give at least one of url, eventTypes, description, format, mentions");
              }
              return url.map(this::checked)
                  .orElse(Mono.empty())
                  .then(endpoint(org, id))
                  .flatMap(
                      stored -> {
                        changeMentions(body, stored, format, changes);
                        return update(
                                WebhookDocuments.ownedBy(stored.id(), org),
                                WebhookDocuments.changed(changes))
                            .filter(r -> r.getMatchedCount() == 1)
                            .switchIfEmpty(
                                Mono.error(
                                    () ->
                                        ApiException.notFound(
                                            "endpoint " + id + " does not exist")))
                            .then(endpoint(org, id));
                      });
            })
        .flatMap(updated -> JsonResponses.ok(view(updated)));
  }

  public Mono<ServerResponse> listEndpoints(ServerRequest request) {
    String org = RouteGuard.org(request.exchange());
    return JsonResponses.body(request)
        .thenMany(
            endpoints()
                .flatMapMany(
                    c ->
                        c.find(WebhookDocuments.endpointsOf(org))
                            .sort(WebhookDocuments.endpointOrder())))
        .map(d -> view(read(d, WebhookEndpoint.class)))
        .collectList()
        .flatMap(list -> JsonResponses.ok(Map.of("endpoints", list)));
  }

  public Mono<ServerResponse> deleteEndpoint(ServerRequest request) {
    String org = RouteGuard.org(request.exchange());
    return JsonResponses.body(request)
        .flatMap(body -> endpoint(org, body.name("id")))
        .flatMap(
            e -> endpoints().flatMap(c -> Mono.from(c.deleteOne(WebhookDocuments.byId(e.id())))))
        .then(JsonResponses.empty());
  }

  /**
   * Enables an endpoint the dispatcher disabled (410 Gone, or failing for days): events from now on
   * are delivered to it again, its failure streak starts over. Deliveries that ended while it was
   * disabled stay in the log, where {@code redeliver} can send them again.
   */
  public Mono<ServerResponse> enableEndpoint(ServerRequest request) {
    String org = RouteGuard.org(request.exchange());
    return JsonResponses.body(request)
        .flatMap(body -> endpoint(org, body.name("id")))
        .flatMap(e -> update(WebhookDocuments.byId(e.id()), WebhookDocuments.enable()))
        .then(JsonResponses.empty());
  }

  /**
   * A new signing secret; the ones signing now keep signing for {@value #GRACE_HOURS} h. Written
   * only over the secrets it read (a compare-and-set, tried again on a lost race), so two rotations
   * at once both keep their secret and neither answers one that was never stored.
   */
  public Mono<ServerResponse> rotateSecret(ServerRequest request) {
    String org = RouteGuard.org(request.exchange());
    return JsonResponses.body(request)
        .flatMap(
            body ->
                Mono.defer(() -> rotate(org, body.name("id")))
                    .retryWhen(
                        Retry.max(ROTATION_ATTEMPTS - 1)
                            .filter(LostRace.class::isInstance)
                            .onRetryExhaustedThrow(
                                (spec, signal) ->
                                    ApiException.conflict(
                                        "the endpoint's secrets kept changing while this rotation"
                                            + " ran; retry"))))
        .flatMap(secret -> JsonResponses.ok(Map.of("secret", secret)));
  }

  /** How often a rotation that lost its race to another is tried again, in all. */
  static final int ROTATION_ATTEMPTS = 8;

  /** Another write changed the secrets between this rotation's read and its write. */
  private static final class LostRace extends RuntimeException {
    LostRace() {
      super("lost the race to another write of the endpoint's secrets", null, false, false);
    }
  }

  private Mono<String> rotate(String org, String id) {
    return endpoints()
        .flatMap(c -> Mono.from(c.find(WebhookDocuments.ownedBy(id, org)).first()))
        .switchIfEmpty(
            Mono.error(() -> ApiException.notFound("endpoint " + id + " does not exist")))
        .flatMap(
            stored -> {
              WebhookEndpoint e = read(stored, WebhookEndpoint.class);
              Instant now = clock.instant();
              String secret = SecretBox.newSecret();
              List<EndpointSecret> kept = new ArrayList<>();
              kept.add(
                  new EndpointSecret(
                      secrets.seal(secret, EndpointSecret.place(e.id())), now, null));
              for (EndpointSecret old : e.secrets()) {
                if (old.signsAt(now)) {
                  Instant retires = now.plus(Duration.ofHours(GRACE_HOURS));
                  kept.add(
                      new EndpointSecret(
                          old.encrypted(),
                          old.createdAt(),
                          old.retiresAt() == null ? retires : old.retiresAt()));
                }
              }
              List<?> read = stored.getList(WebhookDocuments.SECRETS, Object.class, List.of());
              return update(
                      WebhookDocuments.secretsStill(e.id(), read), WebhookDocuments.secrets(kept))
                  .flatMap(
                      result ->
                          result.getMatchedCount() == 1
                              ? Mono.just(secret)
                              : Mono.error(new LostRace()));
            });
  }

  public Mono<ServerResponse> listDeliveries(ServerRequest request) {
    String org = RouteGuard.org(request.exchange());
    return JsonResponses.body(request)
        .zipWith(cursorSecret.get())
        .flatMap(
            both -> {
              RequestBody body = both.getT1();
              String endpointId = body.optionalName("endpointId").orElse(null);
              int take =
                  body.optionalLong("take", 1, MAX_TAKE).orElse((long) DEFAULT_TAKE).intValue();
              String scope = org + "|" + endpointId;
              Bson where = WebhookDocuments.deliveriesOf(org, endpointId);
              DeliveryCursor after =
                  body.optionalString("cursor")
                      .map(
                          c ->
                              SignedToken.decode(
                                  c, DeliveryCursor.class, both.getT2(), scope, "cursor"))
                      .orElse(null);
              Bson filter =
                  after == null
                      ? where
                      : Filters.and(
                          where,
                          WebhookDocuments.deliveriesAfter(
                              Timestamps.parse(after.createdAt()), after.id()));
              return collection(Collections.WEBHOOK_DELIVERIES)
                  .flatMapMany(
                      c -> c.find(filter).sort(WebhookDocuments.deliveryOrder()).limit(take + 1))
                  .map(d -> read(d, WebhookDelivery.class))
                  .collectList()
                  .flatMap(found -> page(found, take, both.getT2(), scope));
            });
  }

  public Mono<ServerResponse> redeliver(ServerRequest request) {
    String org = RouteGuard.org(request.exchange());
    return JsonResponses.body(request)
        .flatMap(
            body -> {
              String id = body.name("deliveryId");
              Bson again = WebhookDocuments.dueNow(clock.instant());
              return collection(Collections.WEBHOOK_DELIVERIES)
                  .flatMap(c -> Mono.from(c.updateOne(WebhookDocuments.ownedBy(id, org), again)))
                  .filter(r -> r.getMatchedCount() == 1)
                  .switchIfEmpty(
                      Mono.error(
                          () -> ApiException.notFound("delivery " + id + " does not exist")));
            })
        .then(JsonResponses.empty());
  }

  /** A position in the delivery log: the last delivery of the page returned. */
  record DeliveryCursor(String createdAt, String id) {}

  private Mono<ServerResponse> page(
      List<WebhookDelivery> found, int take, byte[] secret, String scope) {
    List<Map<String, Object>> items = new ArrayList<>();
    for (WebhookDelivery d : found.subList(0, Math.min(take, found.size()))) {
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("id", d.id());
      item.put("endpointId", d.endpointId());
      item.put("eventId", d.eventId());
      item.put("eventType", d.eventType());
      item.put("status", d.status());
      item.put("createdAt", d.createdAt());
      item.put("nextAttemptAt", d.nextAttemptAt());
      item.put("attempts", d.attempts());
      items.add(item);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("deliveries", items);
    if (found.size() > take) {
      WebhookDelivery last = found.get(take - 1);
      out.put(
          "nextCursor",
          SignedToken.encode(
              new DeliveryCursor(Timestamps.format(last.createdAt()), last.id()), secret, scope));
    }
    return JsonResponses.ok(out);
  }

  private Mono<WebhookEndpoint> endpoint(String org, String id) {
    return endpoints()
        .flatMap(c -> Mono.from(c.find(WebhookDocuments.ownedBy(id, org)).first()))
        .map(d -> read(d, WebhookEndpoint.class))
        .switchIfEmpty(
            Mono.error(() -> ApiException.notFound("endpoint " + id + " does not exist")));
  }

  /** The URL guard resolves names: off the event loop. */
  private Mono<Void> checked(String url) {
    return Mono.fromCallable(() -> guard.problem(url))
        .subscribeOn(Schedulers.boundedElastic())
        .flatMap(
            problem ->
                problem.isPresent()
                    ? Mono.error(ApiException.badRequest(problem.get()))
                    : Mono.empty());
  }

  private static List<String> eventTypes(RequestBody body) {
    List<String> types = body.optionalStringList("eventTypes", 200).orElse(null);
    if (types == null) {
      return null;
    }
    if (types.size() > MAX_TYPES) {
      throw ApiException.badRequest("eventTypes may name at most " + MAX_TYPES + " types");
    }
    for (String type : types) {
      if (!EventTypeFilter.isValid(type)) {
        throw ApiException.badRequest(
            "eventTypes entries are event types (pull_request.merged), prefixes"
                + " (pull_request.*) or *; got '"
                + type
                + "'");
      }
    }
    return types;
  }

  /**
   * The mentions an update stores: those it gives, checked against the format the endpoint will
   * have; none for an endpoint becoming standard; the stored ones, checked again, when only the
   * chat changes.
   */
  private static void changeMentions(
      RequestBody body,
      WebhookEndpoint stored,
      Optional<ChatFormat> format,
      Map<String, Object> changes) {
    ChatFormat after = format.orElse(stored.chatFormat());
    if (body.has("mentions") || body.isExplicitNull("mentions")) {
      changes.put(WebhookDocuments.MENTIONS, mentions(body, after).orElse(null));
    } else if (after == ChatFormat.STANDARD) {
      changes.put(WebhookDocuments.MENTIONS, null); // no one to mention
    } else if (after != stored.chatFormat()) {
      after
          .problemWith(stored.mentions())
          .ifPresent(
              problem -> {
                throw ApiException.badRequest(
                    problem + " (the stored mentions, for format " + after.wire() + ")");
              });
    }
  }

  /** {@code description}: free text of at most {@value #MAX_DESCRIPTION} characters. */
  private static Optional<String> description(RequestBody body) {
    Optional<String> description = body.optionalString("description");
    if (description.filter(d -> d.length() > MAX_DESCRIPTION).isPresent()) {
      throw ApiException.badRequest(
          "description may be at most " + MAX_DESCRIPTION + " characters");
    }
    return description;
  }

  /** {@code mentions}: an object from a source-host login to the chat's id of that person. */
  private static Optional<Map<String, String>> mentions(RequestBody body, ChatFormat format) {
    Optional<JsonNode> node = body.node("mentions");
    if (node.isEmpty()) {
      return Optional.empty();
    }
    if (!node.get().isObject()) {
      throw ApiException.badRequest("mentions must be an object from a login to a chat id");
    }
    Map<String, String> mentions = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> person : node.get().properties()) {
      if (!person.getValue().isString()) {
        throw ApiException.badRequest("mentions." + person.getKey() + " must be a string");
      }
      mentions.put(person.getKey(), person.getValue().asString());
      if (mentions.size() > ChatFormat.MAX_MENTIONS) {
        break; // problemWith names the limit
      }
    }
    format
        .problemWith(mentions)
        .ifPresent(
            problem -> {
              throw ApiException.badRequest(problem);
            });
    return Optional.of(mentions);
  }

  private static Map<String, Object> view(WebhookEndpoint e) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", e.id());
    out.put("url", e.url());
    out.put("eventTypes", e.eventTypes());
    out.put("description", e.description());
    out.put("format", e.chatFormat().wire());
    out.put("mentions", e.mentions());
    out.put("createdAt", e.createdAt());
    out.put("disabled", e.disabled());
    out.put("disabledReason", e.disabledReason());
    return out;
  }

  /** Documents are read with the one JSON configuration they were written with. */
  private static <T> T read(Document doc, Class<T> type) {
    return Json.mapper().convertValue(doc, type);
  }

  /** The collections through the reactive driver, to run {@link WebhookDocuments}' statements. */
  private Mono<MongoCollection<Document>> collection(String name) {
    return mongo.getCollection(name);
  }

  /** One update of the endpoints' collection. */
  private Mono<UpdateResult> update(Bson filter, Bson change) {
    return endpoints().flatMap(c -> Mono.from(c.updateOne(filter, change)));
  }

  private Mono<MongoCollection<Document>> endpoints() {
    return collection(Collections.WEBHOOK_ENDPOINTS);
  }
}
