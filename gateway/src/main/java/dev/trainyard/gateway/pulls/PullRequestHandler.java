package dev.trainyard.gateway.pulls;

import dev.trainyard.common.command.ImpactedTargets;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.json.Timestamps;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.Priority;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.view.PullRequestRow;
import dev.trainyard.common.view.PullRequestView;
import dev.trainyard.common.view.QueueForecast;
import dev.trainyard.gateway.auth.RouteGuard;
import dev.trainyard.gateway.commands.CommandBus;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.JsonResponses;
import dev.trainyard.gateway.http.RequestBody;
import dev.trainyard.gateway.queues.QueueReader;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.bson.Document;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The pull-request endpoints of API.md §2. */
@Component
public class PullRequestHandler {
  private static final int DEFAULT_TAKE = 50;
  private static final int MAX_TAKE = 100;

  /** API.md §2: beyond these a client should send {@code "ALL"}. */
  static final int MAX_TARGETS = 100_000;

  static final int MAX_TARGET_LENGTH = 1024;

  private final CommandBus commands;
  private final QueueReader queues;
  private final PullRequestReader pulls;
  private final ImpactedTargetsStore targets;
  private final CursorSecret cursorSecret;
  private final ReactiveMongoTemplate mongo;

  public PullRequestHandler(
      CommandBus commands,
      QueueReader queues,
      PullRequestReader pulls,
      ImpactedTargetsStore targets,
      CursorSecret cursorSecret,
      ReactiveMongoTemplate mongo) {
    this.commands = commands;
    this.queues = queues;
    this.pulls = pulls;
    this.targets = targets;
    this.cursorSecret = cursorSecret;
    this.mongo = mongo;
  }

  public Mono<ServerResponse> submit(ServerRequest request) {
    return mutate(
        request,
        body ->
            new QueueCommand.SubmitPullRequest(
                body.prNumber(),
                priority(body),
                body.optionalBoolean("noBatch").orElse(null),
                null,
                body.dependsOn(body.prNumber(), QueueCommand.SubmitPullRequest.MAX_DEPENDS_ON)
                    .orElse(null),
                body.optionalBoolean("stack").orElse(false),
                body.optionalFraction("predictedRisk").orElse(null)));
  }

  public Mono<ServerResponse> cancel(ServerRequest request) {
    return mutate(request, body -> new QueueCommand.CancelPullRequest(body.prNumber()));
  }

  public Mono<ServerResponse> restart(ServerRequest request) {
    return mutate(request, body -> new QueueCommand.RestartTests(body.prNumber()));
  }

  public Mono<ServerResponse> get(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(
            body -> {
              QueueKey key = key(request, body);
              boolean byNumber = body.has("pr.number");
              boolean byBranch = body.has("pr.branch");
              if (byNumber == byBranch) {
                throw ApiException.badRequest("give exactly one of pr.number and pr.branch");
              }
              long number = byNumber ? body.prNumber() : -1;
              String branch = byBranch ? body.name("pr.branch") : null;
              // the queue's one read (its forecast) is also the check that it exists, and runs
              // beside the PR's: two round trips at once, where a read took three one after another
              Mono<Optional<PullRequestRow>> row =
                  (byNumber ? pulls.byNumber(key, number) : pulls.byBranch(key, branch))
                      .map(Optional::of)
                      .defaultIfEmpty(Optional.empty());
              return Mono.zip(queues.forecast(key), row)
                  .flatMap(
                      both -> {
                        PullRequestView view =
                            both.getT2()
                                .orElseThrow(
                                    () ->
                                        ApiException.notFound(
                                            "pull request "
                                                + (byNumber
                                                    ? Long.toString(number)
                                                    : "of branch " + branch)
                                                + " was never submitted to this queue"))
                                .view();
                        return JsonResponses.ok(
                            both.getT1().place(view, view.prNumber(), view.state(), Instant.now()));
                      });
            });
  }

  public Mono<ServerResponse> setImpactedTargets(ServerRequest request) {
    return JsonResponses.largeBody(request)
        .flatMap(
            body -> {
              QueueKey key = key(request, body);
              long number = body.prNumber();
              String sha = body.name("pr.sha");
              Optional<List<String>> list = impactedTargets(body);
              // sorting, hashing and storing up to 100,000 targets: not on an event loop
              Mono<ImpactedTargets> stored =
                  Mono.defer(
                          () ->
                              list.map(targets::store)
                                  .orElseGet(() -> Mono.just(ImpactedTargets.everything())))
                      .subscribeOn(Schedulers.boundedElastic());
              return queues
                  .requireExists(key)
                  .then(stored)
                  .map(s -> new QueueCommand.SetImpactedTargets(number, sha, s))
                  .flatMap(c -> commands.sendExpectingAcceptance(key, c))
                  .then(JsonResponses.empty());
            });
  }

  public Mono<ServerResponse> testingDetails(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(
            body -> {
              QueueKey key = key(request, body);
              String runId = body.name("testRunId");
              try {
                UUID.fromString(runId);
              } catch (IllegalArgumentException e) {
                throw ApiException.badRequest("testRunId must be a UUID");
              }
              return queues
                  .requireExists(key)
                  .then(mongo.findById(runId, Document.class, Collections.TEST_RUNS))
                  .filter(run -> key.id().equals(run.getString("queueKey")))
                  .switchIfEmpty(
                      Mono.error(
                          () -> ApiException.notFound("test run " + runId + " does not exist")))
                  .flatMap(this::withTargets)
                  .flatMap(JsonResponses::ok);
            });
  }

  /** The run's details with its impacted targets read from where they are stored. */
  private Mono<Document> withTargets(Document run) {
    Document details = run.get("details", Document.class);
    Document refs = run.get("targets", Document.class);
    if (refs == null) {
      return Mono.just(details);
    }
    return Mono.zip(
            targets.union(refs.getList("all", String.class, List.of())),
            targets.union(refs.getList("tested", String.class, List.of())))
        .map(
            both ->
                details
                    .append("impactedTargets", both.getT1())
                    .append("impactedTargetsForTestedPrs", both.getT2()));
  }

  public Mono<ServerResponse> list(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(
            body -> {
              QueueKey key = key(request, body);
              PullRequestReader.ListFilter filter =
                  new PullRequestReader.ListFilter(
                      body.optionalEnum("state", PrState.class).orElse(null),
                      body.optionalInstant("since").orElse(null),
                      body.optionalInstant("until").orElse(null));
              int take =
                  body.optionalLong("take", 1, MAX_TAKE).orElse((long) DEFAULT_TAKE).intValue();
              String cursorText = body.optionalString("cursor").orElse(null);
              String scope = key.id() + "|" + filter;
              return Mono.zip(queues.listing(key), cursorSecret.get())
                  .flatMap(
                      both -> {
                        QueueReader.Listing listing = both.getT1();
                        byte[] secret = both.getT2();
                        ListCursor after =
                            cursorText == null
                                ? null
                                : ListCursor.decode(cursorText, secret, scope);
                        long snapshot = after == null ? listing.version() : after.snapshot();
                        return pulls
                            .page(key, snapshot, filter, after, take + 1)
                            .flatMap(
                                rows ->
                                    JsonResponses.ok(
                                        page(
                                            rows,
                                            take,
                                            snapshot,
                                            secret,
                                            scope,
                                            listing.forecast())));
                      });
            });
  }

  private static ObjectNode page(
      List<PullRequestRow> rows,
      int take,
      long snapshot,
      byte[] secret,
      String scope,
      QueueForecast forecast) {
    ObjectNode out = Json.mapper().createObjectNode();
    List<PullRequestRow> shown = rows.subList(0, Math.min(take, rows.size()));
    Instant now = Instant.now();
    ArrayNode items = out.putArray("pullRequests");
    for (PullRequestRow row : shown) {
      PullRequestView view = row.view();
      items.addPOJO(forecast.place(view.listItem(), view.prNumber(), view.state(), now));
    }
    if (rows.size() > take) {
      PullRequestRow last = shown.get(shown.size() - 1);
      out.put(
          "nextCursor",
          new ListCursor(snapshot, Timestamps.format(last.stateChangedAt()), last.prId())
              .encode(secret, scope));
    }
    return out;
  }

  private Mono<ServerResponse> mutate(
      ServerRequest request, java.util.function.Function<RequestBody, QueueCommand> command) {
    return JsonResponses.body(request)
        .flatMap(body -> commands.sendExpectingAcceptance(key(request, body), command.apply(body)))
        .then(JsonResponses.empty());
  }

  /** The targets of the request, empty for {@code "ALL"}; a 400 when they break the limits. */
  private static Optional<List<String>> impactedTargets(RequestBody body) {
    JsonNode node =
        body.node("impactedTargets")
            .orElseThrow(
                () ->
                    ApiException.badRequest(
                        "impactedTargets is required: an array of strings or \"ALL\""));
    if (node.isString()) {
      String all = node.asString().toUpperCase(Locale.ROOT);
      if (!all.equals("ALL") && !all.equals("IMPACTS_ALL")) {
        throw ApiException.badRequest("impactedTargets must be an array of strings or \"ALL\"");
      }
      return Optional.empty();
    }
    if (node.isArray() && node.size() > MAX_TARGETS) {
      throw ApiException.badRequest(
          "impactedTargets holds "
              + node.size()
              + " targets, more than the limit of "
              + MAX_TARGETS
              + "; send \"ALL\" instead when a pull request impacts that many");
    }
    return Optional.of(body.optionalStringList("impactedTargets", MAX_TARGET_LENGTH).orElseThrow());
  }

  private static Priority priority(RequestBody body) {
    return body.node("priority")
        .map(
            n -> {
              String error =
                  "priority must be an integer between 0 and 255 or one of urgent|high|medium|low";
              if (n.isIntegralNumber()) {
                long value = body.optionalLong("priority", 0, Priority.MAX_VALUE).orElseThrow();
                return Priority.ofValue((int) value);
              }
              if (n.isString()) {
                return Priority.named(n.asString())
                    .orElseThrow(() -> ApiException.badRequest(error));
              }
              throw ApiException.badRequest(error);
            })
        .orElse(null);
  }

  private static QueueKey key(ServerRequest request, RequestBody body) {
    return body.queueKey(RouteGuard.org(request.exchange()));
  }
}
