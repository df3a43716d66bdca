package dev.trainyard.gateway.scm;

import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.common.view.Collections;
import dev.trainyard.gateway.auth.AuthFilter;
import dev.trainyard.gateway.commands.CommandBus;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.JsonResponses;
import java.util.regex.Pattern;
import org.bson.Document;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code POST /v1/scm/git/notify {repo}}: every queue of the organization on that repository
 * re-reads its pull requests now; the answer comes once the resulting changes are queued.
 */
@Component
public class ScmHandler {
  private final ReactiveMongoTemplate mongo;
  private final CommandBus commands;

  public ScmHandler(ReactiveMongoTemplate mongo, CommandBus commands) {
    this.mongo = mongo;
    this.commands = commands;
  }

  public Mono<ServerResponse> gitNotify(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(
            body -> {
              RepoRef repo = body.repo();
              String org = AuthFilter.org(request.exchange());
              return queuesOf(org, repo)
                  .flatMap(
                      key ->
                          commands
                              .sendExpectingAcceptance(key, new QueueCommand.RefreshFromScm())
                              .thenReturn(key))
                  .count()
                  .flatMap(
                      count ->
                          count == 0
                              ? Mono.error(
                                  ApiException.notFound(
                                      "no queue of this organization uses "
                                          + repo.host()
                                          + "/"
                                          + repo.slug()))
                              : JsonResponses.empty());
            });
  }

  private Flux<QueueKey> queuesOf(String org, RepoRef repo) {
    // queue ids are org/host/owner/name:branch, so the repository's queues share a prefix
    String prefix = QueueKey.of(org, repo.host(), repo.owner(), repo.name(), "").id();
    Query query =
        Query.query(Criteria.where("_id").regex("^" + Pattern.quote(prefix)).and("view").ne(null));
    query.fields().include("aggregate.key");
    return mongo
        .find(query, Document.class, Collections.QUEUES)
        .map(
            doc ->
                Json.mapper()
                    .convertValue(doc.get("aggregate", Document.class).get("key"), QueueKey.class));
  }
}
