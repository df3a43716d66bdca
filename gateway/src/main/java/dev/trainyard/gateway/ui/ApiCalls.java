package dev.trainyard.gateway.ui;

import dev.trainyard.common.json.Json;
import dev.trainyard.gateway.auth.ApiPermissions;
import dev.trainyard.gateway.auth.Caller;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.RequestNote;
import dev.trainyard.gateway.idempotency.CommandIds;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.EntityResponse;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * The dashboard acts through the API's own handlers: a form becomes the JSON body of the API
 * request it stands for, sent to the handler as that request with the session's organization and
 * role (checked against the API's own {@link ApiPermissions}), so a page can do exactly what the
 * API allows that role and is refused with the API's own sentences.
 */
final class ApiCalls {
  private ApiCalls() {}

  /** The API's answer to {@code body} at {@code path}, read as JSON; a 4xx or 5xx is an error. */
  static Mono<JsonNode> call(
      HandlerFunction<ServerResponse> handler, ServerRequest page, String path, Object body) {
    return Mono.defer(
            () -> {
              // what the API asks of a token for this path, asked of the session's token
              RequestNote.operation(page, path);
              Caller.require(page.exchange(), ApiPermissions.of(path));
              return handler.handle(request(page, path, body));
            })
        .flatMap(ApiCalls::json);
  }

  /**
   * {@link #call}, its commands sent under ids derived from {@code key} (as a request with an
   * {@code Idempotency-Key} sends them): the same action sent again (a double click, a resent form)
   * sends the same commands, which the queue applies once and answers again as the first time.
   * Without a key, {@link #call}.
   */
  static Mono<JsonNode> callOnce(
      HandlerFunction<ServerResponse> handler,
      ServerRequest page,
      String path,
      Object body,
      String key) {
    Mono<JsonNode> answer = call(handler, page, path, body);
    return key == null ? answer : answer.contextWrite(CommandIds.seeded(key));
  }

  private static ServerRequest request(ServerRequest page, String path, Object body) {
    byte[] json = Json.mapper().writeValueAsBytes(body);
    return ServerRequest.from(page)
        .uri(URI.create(path))
        .headers(
            h -> {
              h.remove(HttpHeaders.COOKIE);
              h.setContentType(MediaType.APPLICATION_JSON);
              h.setContentLength(json.length);
            })
        .body(new String(json, StandardCharsets.UTF_8))
        .build();
  }

  private static Mono<JsonNode> json(ServerResponse answer) {
    Object entity = answer instanceof EntityResponse<?> e ? e.entity() : null;
    String text =
        entity instanceof byte[] bytes
            ? new String(bytes, StandardCharsets.UTF_8)
            : entity == null ? "" : entity.toString();
    if (answer.statusCode().isError()) {
      HttpStatus status = HttpStatus.resolve(answer.statusCode().value());
      return Mono.error(
          new ApiException(
              status == null ? HttpStatus.BAD_GATEWAY : status,
              text.isBlank() ? "the request was refused" : text.strip()));
    }
    return Mono.just(
        text.isBlank() ? Json.mapper().createObjectNode() : Json.mapper().readTree(text));
  }
}
