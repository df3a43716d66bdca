package dev.trainyard.gateway.scm.github;

import dev.trainyard.gateway.auth.Organizations;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.JsonResponses;
import dev.trainyard.gateway.http.RequestBody;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code /admin/v1/bindGithubInstallation {org, installationId}} and {@code
 * unbindGithubInstallation {installationId}}: which organization a GitHub App installation serves
 * (one per installation; binding one that serves another organization is a 409); {@code
 * listGithubInstallations}: every installation with the account it is on, so an admin sees whose
 * installation waits before binding it.
 */
@Component
public class GithubAdminHandler {
  private final GithubInstallations installations;
  private final Organizations organizations;

  public GithubAdminHandler(GithubInstallations installations, Organizations organizations) {
    this.installations = installations;
    this.organizations = organizations;
  }

  public Mono<ServerResponse> bind(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(
            body -> {
              String org = body.name("org");
              long id = installationId(body);
              return organizations
                  .exists(org)
                  .flatMap(
                      exists ->
                          exists
                              ? installations.bind(id, org)
                              : Mono.error(
                                  ApiException.notFound(
                                      "organization " + org + " does not exist")));
            })
        .then(JsonResponses.empty());
  }

  public Mono<ServerResponse> list(ServerRequest request) {
    return installations
        .all()
        .map(
            i -> {
              Map<String, Object> shown = new LinkedHashMap<>();
              shown.put("installationId", i.id());
              shown.put("account", i.account());
              shown.put("org", i.org());
              shown.put("suspended", i.suspended());
              return shown;
            })
        .collectList()
        .flatMap(all -> JsonResponses.ok(Map.of("installations", all)));
  }

  public Mono<ServerResponse> unbind(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(body -> installations.unbind(installationId(body)))
        .then(JsonResponses.empty());
  }

  private static long installationId(RequestBody body) {
    return body.optionalLong("installationId", 1, Long.MAX_VALUE)
        .orElseThrow(
            () ->
                ApiException.badRequest(
                    "installationId is required: the GitHub App installation's id, a positive"
                        + " integer"));
  }
}
