package dev.trainyard.gateway.ci;

import dev.trainyard.common.command.CommitState;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.gateway.auth.RouteGuard;
import dev.trainyard.gateway.commands.CommandBus;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.JsonResponses;
import dev.trainyard.gateway.http.RequestBody;
import dev.trainyard.gateway.queues.RepositoryQueues;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code POST /v1/ci/reportStatus}: a CI status for a commit goes to every queue of the repository,
 * which applies it to the test run whose branch head it is, or keeps it until such a run appears.
 * The 200 comes once every queue has it.
 */
@Component
public class CiHandler {
  private static final Pattern SHA = Pattern.compile("[0-9a-f]{40}|[0-9a-f]{64}");
  private static final int MAX_TEXT = 1024;
  private final RepositoryQueues queues;
  private final CommandBus commands;

  public CiHandler(RepositoryQueues queues, CommandBus commands) {
    this.queues = queues;
    this.commands = commands;
  }

  public Mono<ServerResponse> reportStatus(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(
            body -> {
              RepoRef repo = body.repo();
              QueueCommand.ReportStatus status = status(body);
              return queues
                  .require(RouteGuard.org(request.exchange()), repo)
                  .flatMapMany(Flux::fromIterable)
                  .concatMap(key -> commands.sendExpectingAcceptance(key, status))
                  .then(JsonResponses.empty());
            });
  }

  static QueueCommand.ReportStatus status(RequestBody body) {
    String sha = body.name("sha");
    if (!SHA.matcher(sha).matches()) {
      throw ApiException.badRequest(
          "sha must be a full commit id: 40 (or 64) lower-case hex digits");
    }
    String context = body.name("context");
    CommitState state =
        body.optionalEnum("state", CommitState.class)
            .orElseThrow(
                () ->
                    ApiException.badRequest(
                        "state is required and must be one of pending|success|failure|error"));
    return new QueueCommand.ReportStatus(
        sha, context, state, text(body, "url"), text(body, "description"));
  }

  private static String text(RequestBody body, String field) {
    return body.optionalString(field)
        .map(
            value -> {
              if (value.length() > MAX_TEXT) {
                throw ApiException.badRequest(
                    field + " must be at most " + MAX_TEXT + " characters");
              }
              return value;
            })
        .orElse(null);
  }
}
