package dev.trainyard.gateway.scm;

import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.gateway.auth.RouteGuard;
import dev.trainyard.gateway.commands.CommandBus;
import dev.trainyard.gateway.http.JsonResponses;
import dev.trainyard.gateway.queues.RepositoryQueues;
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
  private final RepositoryQueues queues;
  private final CommandBus commands;

  public ScmHandler(RepositoryQueues queues, CommandBus commands) {
    this.queues = queues;
    this.commands = commands;
  }

  public Mono<ServerResponse> gitNotify(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(body -> queues.require(RouteGuard.org(request.exchange()), body.repo()))
        .flatMapMany(Flux::fromIterable)
        .concatMap(key -> commands.sendExpectingAcceptance(key, new QueueCommand.RefreshFromScm()))
        .then(JsonResponses.empty());
  }
}
