package dev.trainyard.gateway.scm.github;

import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.json.Timestamps;
import dev.trainyard.common.queue.Priority;
import dev.trainyard.common.view.Collections;
import dev.trainyard.gateway.commands.CommandBus;
import dev.trainyard.gateway.config.GatewayProperties;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.JsonResponses;
import dev.trainyard.gateway.queues.RepositoryQueues;
import dev.trainyard.gateway.queues.RepositoryQueues.RepositoryQueue;
import dev.trainyard.gateway.scm.github.GithubEvents.Intent;
import dev.trainyard.gateway.scm.github.GithubEvents.Routed;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /v1/scm/github/webhook}: GitHub's deliveries for the App, without an API token. The
 * {@code X-Hub-Signature-256} must sign the body with {@code TRAINYARD_GITHUB_WEBHOOK_SECRET} (else
 * 401). A delivery is routed by its installation to the organization it serves, and becomes
 * commands for that organization's queues on the repository: re-read the PRs, a CI status, a
 * submission by label or by a {@code /trainyard} comment from a user with write access. Their
 * command ids derive from {@code X-GitHub-Delivery}, so a redelivered delivery is applied once even
 * when two copies arrive together; an applied one is remembered and answered at once. Unknown event
 * types and actions are answered 200 and change nothing.
 */
@Component
public class GithubWebhookHandler {
  private static final Logger log = LoggerFactory.getLogger(GithubWebhookHandler.class);
  private static final int MAX_HEADER = 255;
  private final GatewayProperties.Github github;
  private final GithubInstallations installations;
  private final GithubCommenters commenters;
  private final RepositoryQueues queues;
  private final CommandBus commands;
  private final ReactiveMongoTemplate mongo;
  private final InstantSource clock;

  public GithubWebhookHandler(
      GatewayProperties props,
      GithubInstallations installations,
      GithubCommenters commenters,
      RepositoryQueues queues,
      CommandBus commands,
      ReactiveMongoTemplate mongo,
      InstantSource clock) {
    this.github = props.github();
    this.installations = installations;
    this.commenters = commenters;
    this.queues = queues;
    this.commands = commands;
    this.mongo = mongo;
    this.clock = clock;
  }

  public Mono<ServerResponse> receive(ServerRequest request) {
    if (github.webhookSecret() == null) {
      return Mono.error(
          ApiException.unavailable(
              "the GitHub App is not configured here: set TRAINYARD_GITHUB_WEBHOOK_SECRET"));
    }
    return request
        .bodyToMono(byte[].class)
        .defaultIfEmpty(new byte[0])
        .flatMap(
            body -> {
              String signature = request.headers().firstHeader("X-Hub-Signature-256");
              if (!GithubSignature.verifies(github.webhookSecret(), body, signature)) {
                throw ApiException.unauthorized(
                    "X-Hub-Signature-256 is missing or does not sign this body with the webhook"
                        + " secret");
              }
              String event = header(request, "X-GitHub-Event");
              String delivery = header(request, "X-GitHub-Delivery");
              Routed routed = GithubEvents.read(event, payload(body), github.host());
              return applied(delivery)
                  .flatMap(
                      seen ->
                          seen
                              ? Mono.<Void>empty()
                              : apply(routed, delivery).then(remember(delivery)));
            })
        .then(JsonResponses.empty());
  }

  private Mono<Void> apply(Routed routed, String delivery) {
    if (routed instanceof Routed.Installation i) {
      return installations.changed(i.id(), i.account(), i.action(), github.defaultOrg());
    }
    if (!(routed instanceof Routed.Repository r)) {
      log.debug("GitHub delivery {} ignored: {}", delivery, ((Routed.Ignored) routed).why());
      return Mono.empty();
    }
    return installations
        .servedOrg(r.installationId())
        .flatMap(
            org ->
                Mono.zip(
                    queues.find(org, r.repo()),
                    Flux.fromIterable(r.intents()).concatMap(i -> authorized(r, i)).collectList()))
        .flatMapMany(
            found ->
                Flux.fromIterable(found.getT1())
                    .concatMap(queue -> send(queue, found.getT2(), delivery)))
        .then();
  }

  /**
   * A comment becomes its command when GitHub says its author may give it; the rest as they are.
   */
  private Mono<Intent> authorized(Routed.Repository r, Intent intent) {
    return intent instanceof Intent.Comment c
        ? commenters.authorize(r.installationId(), r.repo(), c).cast(Intent.class)
        : Mono.just(intent);
  }

  /** The commands for one queue, each under an id derived from the delivery. */
  private Flux<Void> send(RepositoryQueue queue, List<Intent> intents, String delivery) {
    List<QueueCommand> toSend = new ArrayList<>();
    for (Intent intent : intents) {
      commandFor(queue, intent).ifPresent(toSend::add);
    }
    return Flux.range(0, toSend.size())
        .concatMap(
            i -> {
              String id =
                  UUID.nameUUIDFromBytes(
                          (delivery + "/" + queue.key().id() + "/" + i)
                              .getBytes(StandardCharsets.UTF_8))
                      .toString();
              // a rejection (a label for a PR already queued) changes nothing: not an error
              return commands.send(queue.key(), toSend.get(i), id).then();
            });
  }

  private static Optional<QueueCommand> commandFor(RepositoryQueue queue, Intent intent) {
    if (intent instanceof Intent.Refresh r) {
      return Optional.of(new QueueCommand.RefreshFromScm(r.checksChanged()));
    }
    if (intent instanceof Intent.Status s) {
      return Optional.of(s.report());
    }
    if (intent instanceof Intent.Command c) {
      if (!queue.settings().commandsEnabled()
          || !c.base().equals(queue.key().branch())
          || !allowed(queue, c.bot())) {
        return Optional.empty();
      }
      return Optional.of(
          c.submit()
              ? new QueueCommand.SubmitPullRequest(c.number(), c.priority(), c.noBatch())
              : new QueueCommand.CancelPullRequest(c.number()));
    }
    if (intent instanceof Intent.Comment) {
      return Optional.empty(); // not authorized
    }
    Intent.Label label = (Intent.Label) intent;
    boolean enqueueing =
        queue.settings().labelCommandsEnabled()
            && label.label().equals(queue.settings().enqueueingLabel())
            && label.base().equals(queue.key().branch())
            && allowed(queue, label.bot());
    if (!enqueueing) {
      return Optional.empty();
    }
    return Optional.of(
        label.added()
            ? new QueueCommand.SubmitPullRequest(label.number(), (Priority) null, null)
            : new QueueCommand.CancelPullRequest(label.number()));
  }

  /**
   * A person's command (no {@code bot}), or one from a Bot account the queue lists in {@code
   * allowedBotSubmitters} (API.md §6); any other Bot's is ignored.
   */
  private static boolean allowed(RepositoryQueue queue, String bot) {
    if (bot == null || queue.settings().allowedBotSubmitters().contains(bot)) {
      return true;
    }
    log.info(
        "a command from {} on {} was ignored: the queue does not list it in allowedBotSubmitters",
        bot,
        queue.key().id());
    return false;
  }

  private Mono<Boolean> applied(String delivery) {
    return mongo.exists(
        Query.query(Criteria.where("_id").is(delivery)), Collections.GITHUB_DELIVERIES);
  }

  private Mono<Void> remember(String delivery) {
    Document seen = new Document("_id", delivery).append("at", Timestamps.format(clock.instant()));
    return mongo
        .insert(seen, Collections.GITHUB_DELIVERIES)
        .onErrorResume(DuplicateKeyException.class, e -> Mono.empty())
        .then();
  }

  private static String header(ServerRequest request, String name) {
    String value = request.headers().firstHeader(name);
    if (value == null || value.isBlank() || value.length() > MAX_HEADER) {
      throw ApiException.badRequest(name + " is required: at most " + MAX_HEADER + " characters");
    }
    return value;
  }

  private static JsonNode payload(byte[] body) {
    try {
      JsonNode node = Json.mapper().readTree(body);
      if (node == null || !node.isObject()) {
        throw ApiException.badRequest("the delivery body must be a JSON object");
      }
      return node;
    } catch (JacksonException e) {
      throw ApiException.badRequest("the delivery body is not JSON: " + e.getOriginalMessage());
    }
  }
}
