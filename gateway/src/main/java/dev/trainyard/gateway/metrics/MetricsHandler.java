package dev.trainyard.gateway.metrics;

import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.RepoNames;
import dev.trainyard.gateway.auth.RouteGuard;
import dev.trainyard.gateway.http.ApiException;
import java.time.InstantSource;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * GET getMergeQueueMetrics: every queue of the token's organization, or those of one repository
 * ({@code repo=owner/name} with {@code repoHost}). A repository the organization has no queue on
 * yields an empty exposition, not a 404, so a scrape target never flaps.
 */
@Component
public class MetricsHandler {
  private final MetricsReader reader;
  private final InstantSource clock;

  public MetricsHandler(MetricsReader reader, InstantSource clock) {
    this.reader = reader;
    this.clock = clock;
  }

  public Mono<ServerResponse> get(ServerRequest request) {
    return Mono.fromCallable(() -> prefix(RouteGuard.org(request.exchange()), request))
        .flatMap(prefix -> reader.lanes(prefix, clock.instant()))
        .flatMap(
            lanes ->
                ServerResponse.ok()
                    // verbatim: Spring's MediaType would print it without the spaces
                    .header(HttpHeaders.CONTENT_TYPE, Exposition.CONTENT_TYPE)
                    .bodyValue(Exposition.render(lanes)));
  }

  /** The queue-id prefix the request selects; a 400 naming the field when the query is bad. */
  static String prefix(String org, ServerRequest request) {
    Optional<String> repo = request.queryParam("repo");
    if (repo.isEmpty()) {
      return org + "/";
    }
    String slug = repo.get();
    int slash = slug.indexOf('/');
    if (slash <= 0 || slash == slug.length() - 1 || slug.indexOf('/', slash + 1) >= 0) {
      throw ApiException.badRequest("repo must have the form owner/name");
    }
    String host = request.queryParam("repoHost").orElse("");
    if (host.isEmpty()) {
      throw ApiException.badRequest("repoHost is required when repo is given");
    }
    String owner = slug.substring(0, slash);
    String name = slug.substring(slash + 1);
    RepoNames.host("repoHost", host);
    RepoNames.segment("repo", owner);
    RepoNames.segment("repo", name);
    return QueueKey.of(org, host, owner, name, "").id();
  }
}
