package dev.trainyard.gateway.commands;

import dev.trainyard.common.command.CommandReply;
import dev.trainyard.common.command.DeadCommand;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.token.SignedToken;
import dev.trainyard.common.view.Collections;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.JsonResponses;
import dev.trainyard.gateway.http.Keyset;
import dev.trainyard.gateway.http.RequestBody;
import dev.trainyard.gateway.pulls.CursorSecret;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.domain.Sort;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code /admin/v1/listDeadCommands {cursor?, take?}}, {@code replayDeadCommand {id}} and {@code
 * dismissDeadCommand {id}}: the commands queues could not apply (API.md §6), oldest first, sending
 * one again once its cause is removed, and dropping one that should not be applied. A replay goes
 * under {@link DeadCommand#replayId}: asked twice, it applies once. Once the worker has answered
 * it, the record is gone; a replay that fails again is a new dead command (the replay id), answered
 * 500 like the first.
 */
@Component
public class DeadCommandsHandler {
  private static final Logger log = LoggerFactory.getLogger(DeadCommandsHandler.class);
  private static final int DEFAULT_TAKE = 50;
  private static final int MAX_TAKE = 100;
  private static final String SCOPE = "dead-commands";
  private final ReactiveMongoTemplate mongo;
  private final CommandBus commands;
  private final CursorSecret cursorSecret;

  public DeadCommandsHandler(
      ReactiveMongoTemplate mongo, CommandBus commands, CursorSecret cursorSecret) {
    this.mongo = mongo;
    this.commands = commands;
    this.cursorSecret = cursorSecret;
  }

  public Mono<ServerResponse> list(ServerRequest request) {
    return JsonResponses.body(request)
        .zipWith(cursorSecret.get())
        .flatMap(
            both -> {
              RequestBody body = both.getT1();
              int take =
                  body.optionalLong("take", 1, MAX_TAKE).orElse((long) DEFAULT_TAKE).intValue();
              Criteria where = new Criteria();
              Cursor after =
                  body.optionalString("cursor")
                      .map(c -> SignedToken.decode(c, Cursor.class, both.getT2(), SCOPE, "cursor"))
                      .orElse(null);
              if (after != null) {
                where = Keyset.after(where, "at", false, after.at(), after.id());
              }
              Query query =
                  Query.query(where)
                      .with(Sort.by(Sort.Order.asc("at"), Sort.Order.asc("_id")))
                      .limit(take + 1);
              return mongo
                  .find(query, Document.class, Collections.DEAD_COMMANDS)
                  .map(d -> Json.mapper().convertValue(d, DeadCommand.class))
                  .collectList()
                  .flatMap(found -> JsonResponses.ok(page(found, take, both.getT2())));
            });
  }

  public Mono<ServerResponse> replay(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(
            body -> {
              String id = body.name("id");
              return mongo
                  .findById(id, Document.class, Collections.DEAD_COMMANDS)
                  .map(d -> Json.mapper().convertValue(d, DeadCommand.class))
                  .switchIfEmpty(
                      Mono.error(
                          () -> ApiException.notFound("dead command " + id + " does not exist")))
                  .flatMap(this::replay);
            })
        .then(JsonResponses.empty());
  }

  /** Removes the record without applying its command; 404 when there is none. */
  public Mono<ServerResponse> dismiss(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(
            body -> {
              String id = body.name("id");
              return mongo
                  .remove(Query.query(Criteria.where("_id").is(id)), Collections.DEAD_COMMANDS)
                  .flatMap(
                      removed ->
                          removed.getDeletedCount() == 0
                              ? Mono.error(
                                  ApiException.notFound("dead command " + id + " does not exist"))
                              : Mono.fromRunnable(
                                  () -> log.info("dead command {} dismissed, not applied", id)));
            })
        .then(JsonResponses.empty());
  }

  /** Sends the command again; once answered, the record is done with whatever the answer. */
  private Mono<Void> replay(DeadCommand dead) {
    QueueKey queue = dead.envelope().queue();
    return commands
        .send(queue, dead.envelope().command(), DeadCommand.replayId(dead.id()))
        .flatMap(
            reply ->
                mongo
                    .remove(
                        Query.query(Criteria.where("_id").is(dead.id())), Collections.DEAD_COMMANDS)
                    .then(answer(reply)));
  }

  private static Mono<Void> answer(CommandReply reply) {
    return reply.isAccepted() ? Mono.empty() : Mono.error(CommandBus.toError(reply));
  }

  /** A position in the listing: the last dead command of the page returned. */
  record Cursor(String at, String id) {}

  private static Map<String, Object> page(List<DeadCommand> found, int take, byte[] secret) {
    List<Map<String, Object>> items = new ArrayList<>();
    for (DeadCommand dead : found.subList(0, Math.min(take, found.size()))) {
      QueueKey queue = dead.envelope().queue();
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("id", dead.id());
      item.put(
          "queue",
          Map.of("org", queue.org(), "repo", queue.repo(), "targetBranch", queue.branch()));
      // written as its interface, so the type's name ("kind") is in it: in a map Jackson would
      // write the record alone, and a submit would read as a cancel
      item.put(
          "command",
          Json.mapper()
              .readTree(
                  Json.mapper()
                      .writerFor(QueueCommand.class)
                      .writeValueAsBytes(dead.envelope().command())));
      item.put("error", dead.error());
      item.put("at", dead.at());
      items.add(item);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("deadCommands", items);
    if (found.size() > take) {
      DeadCommand last = found.get(take - 1);
      out.put("nextCursor", SignedToken.encode(new Cursor(last.at(), last.id()), secret, SCOPE));
    }
    return out;
  }
}
