package dev.trainyard.gateway.http;

import dev.trainyard.common.json.Json;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** Reading request bodies and writing JSON answers with the project's one JSON configuration. */
public final class JsonResponses {
  private static final byte[] EMPTY = new byte[0];

  private JsonResponses() {}

  /** The body, parsed strictly; the codec's size limit turns an oversized body into a 413. */
  public static Mono<RequestBody> body(ServerRequest request) {
    return request
        .bodyToMono(byte[].class)
        .defaultIfEmpty(EMPTY)
        .map(bytes -> RequestNote.noted(request, RequestBody.parse(bytes)));
  }

  /**
   * The body, parsed strictly on a worker thread rather than the event loop: for endpoints whose
   * body may be megabytes (impacted targets), so parsing one cannot stall other connections.
   */
  public static Mono<RequestBody> largeBody(ServerRequest request) {
    return request
        .bodyToMono(byte[].class)
        .defaultIfEmpty(EMPTY)
        .publishOn(Schedulers.boundedElastic())
        .map(bytes -> RequestNote.noted(request, RequestBody.parse(bytes)));
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
