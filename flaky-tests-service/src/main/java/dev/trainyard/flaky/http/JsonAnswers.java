package dev.trainyard.flaky.http;

import dev.trainyard.common.json.Json;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/** Reading JSON request bodies and writing JSON answers with the project's one JSON setting. */
public final class JsonAnswers {
  private JsonAnswers() {}

  public static Mono<JsonBody> body(ServerRequest request) {
    return request.bodyToMono(byte[].class).defaultIfEmpty(new byte[0]).map(JsonBody::parse);
  }

  public static Mono<ServerResponse> ok(Object value) {
    return ServerResponse.ok()
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(Json.mapper().writeValueAsBytes(value));
  }

  /** A mutation's success: exactly 200 with {@code {}}. */
  public static Mono<ServerResponse> empty() {
    return ok(Map.of());
  }
}
