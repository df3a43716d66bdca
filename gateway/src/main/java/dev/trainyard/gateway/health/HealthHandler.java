package dev.trainyard.gateway.health;

import dev.trainyard.common.json.Json;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.ApiVersion;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.WebServerNamespace;
import org.springframework.boot.health.actuate.endpoint.ReactiveHealthEndpointWebExtension;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * The actuator's health, and its {@code liveness} and {@code readiness} groups, for load balancers
 * and probes that only reach the API port: the status and its HTTP code (503 when down), never the
 * components, which stay on the management port.
 */
@Component
public class HealthHandler {
  private final ReactiveHealthEndpointWebExtension health;

  public HealthHandler(ReactiveHealthEndpointWebExtension health) {
    this.health = health;
  }

  public Mono<ServerResponse> overall(ServerRequest request) {
    return answer();
  }

  public Mono<ServerResponse> liveness(ServerRequest request) {
    return answer("liveness");
  }

  public Mono<ServerResponse> readiness(ServerRequest request) {
    return answer("readiness");
  }

  private Mono<ServerResponse> answer(String... group) {
    return health
        .health(ApiVersion.LATEST, WebServerNamespace.SERVER, SecurityContext.NONE, group)
        .flatMap(
            response -> {
              String status =
                  response.getBody() == null ? "UNKNOWN" : response.getBody().getStatus().getCode();
              return ServerResponse.status(response.getStatus())
                  .contentType(MediaType.APPLICATION_JSON)
                  .bodyValue(Json.mapper().writeValueAsBytes(Map.of("status", status)));
            });
  }
}
