package dev.trainyard.gateway.auth;

import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.JsonResponses;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/** {@code /admin/v1/*}: organizations and API tokens (API.md §6). */
@Component
public class AdminHandler {
  private final Organizations organizations;

  public AdminHandler(Organizations organizations) {
    this.organizations = organizations;
  }

  public Mono<ServerResponse> createOrganization(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(
            body -> {
              String slug = body.name("slug");
              if (!slug.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
                throw ApiException.badRequest(
                    "slug must start with a letter or digit and hold only letters, digits, '.', '_' and '-'");
              }
              return organizations
                  .create(slug)
                  .flatMap(
                      created ->
                          created
                              ? JsonResponses.ok(Map.of("slug", slug))
                              : Mono.error(
                                  new ApiException(
                                      HttpStatus.CONFLICT,
                                      "organization " + slug + " exists already")));
            });
  }

  public Mono<ServerResponse> createApiToken(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(
            body -> {
              String org = body.name("org");
              String token = TokenHash.newToken();
              return organizations
                  .exists(org)
                  .flatMap(
                      exists ->
                          exists
                              ? organizations
                                  .addToken(org, token)
                                  .then(JsonResponses.ok(Map.of("token", token)))
                              : Mono.error(
                                  ApiException.notFound(
                                      "organization " + org + " does not exist")));
            });
  }

  public Mono<ServerResponse> revokeApiToken(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(body -> organizations.revoke(body.name("token")).then(JsonResponses.ok(Map.of())));
  }
}
