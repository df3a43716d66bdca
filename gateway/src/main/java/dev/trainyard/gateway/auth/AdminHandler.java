package dev.trainyard.gateway.auth;

import dev.trainyard.common.queue.WireEnum;
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

  /** The longest token name, in characters. */
  static final int MAX_NAME = 100;

  /**
   * {@code createApiToken {org, role?, name?}}: a token of {@code role} ({@code viewer}, {@code
   * submit}, {@code operator} or {@code admin}, the default) named {@code name} in the audit log.
   */
  public Mono<ServerResponse> createApiToken(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(
            body -> {
              String org = body.name("org");
              Role role =
                  body.optionalString("role")
                      .map(
                          r ->
                              Role.parse(r)
                                  .orElseThrow(
                                      () ->
                                          ApiException.badRequest(
                                              "role must be one of "
                                                  + WireEnum.choices(Role.class))))
                      .orElse(Role.ADMIN);
              String name = body.optionalString("name").orElse(null);
              if (name != null
                  && (name.isBlank()
                      || name.length() > MAX_NAME
                      || name.chars().anyMatch(Character::isISOControl))) {
                throw ApiException.badRequest(
                    "name must be 1 to " + MAX_NAME + " characters without control characters");
              }
              String token = TokenHash.newToken();
              Map<String, Object> answer = new java.util.LinkedHashMap<>();
              answer.put("token", token);
              answer.put("role", role.wire());
              answer.put("name", name);
              return organizations
                  .exists(org)
                  .flatMap(
                      exists ->
                          exists
                              ? organizations
                                  .addToken(org, token, role, name)
                                  .then(JsonResponses.ok(answer))
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
