package dev.trainyard.gateway.http;

import dev.trainyard.common.boot.Outage;
import dev.trainyard.common.json.InvalidRequestException;
import dev.trainyard.common.token.InvalidTokenException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.annotation.Order;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

/**
 * Answers every error as one plain-text sentence (API.md §1). Client mistakes keep their 4xx; Kafka
 * or MongoDB being unreachable is a 503 with {@code Retry-After}; anything else is a bug and the
 * only source of a 500.
 */
@Component
@Order(-2)
public class ErrorHandler implements WebExceptionHandler {
  public static final String RETRY_AFTER_SECONDS = "5";
  private static final Logger log = LoggerFactory.getLogger(ErrorHandler.class);

  @Override
  public Mono<Void> handle(ServerWebExchange exchange, Throwable error) {
    ServerHttpResponse response = exchange.getResponse();
    if (response.isCommitted()) {
      return Mono.error(error);
    }
    Throwable cause = unwrap(error);
    HttpStatusCode status;
    String message;
    long retryAfter = 0;
    if (cause instanceof ApiException api) {
      status = api.status();
      message = api.getMessage();
      retryAfter = api.retryAfterSeconds();
    } else if (cause instanceof InvalidTokenException || cause instanceof InvalidRequestException) {
      status = HttpStatus.BAD_REQUEST;
      message = cause.getMessage();
    } else if (cause instanceof DataBufferLimitException) {
      status = HttpStatus.CONTENT_TOO_LARGE;
      message = "the request body is larger than the limit of 20 MiB";
    } else if (cause instanceof ResponseStatusException rse) {
      status = rse.getStatusCode();
      message = rse.getReason() != null ? rse.getReason() : "request not accepted";
    } else if (Outage.isOutage(cause)) {
      status = HttpStatus.SERVICE_UNAVAILABLE;
      message = "trainyard cannot reach its message broker or store right now; retry later";
      log.warn("answering 503: {}", cause.toString());
    } else {
      status = HttpStatus.INTERNAL_SERVER_ERROR;
      message = "internal error";
      log.error("unexpected error on {}", exchange.getRequest().getPath(), cause);
    }
    return write(response, status, message, retryAfter);
  }

  public static Mono<Void> write(
      ServerHttpResponse response, HttpStatusCode status, String message) {
    return write(response, status, message, 0);
  }

  /**
   * Writes the sentence; a 503 or 429 names when to retry ({@code retryAfterSeconds}, or {@value
   * #RETRY_AFTER_SECONDS} s when 0).
   */
  public static Mono<Void> write(
      ServerHttpResponse response, HttpStatusCode status, String message, long retryAfterSeconds) {
    response.setStatusCode(status);
    HttpHeaders headers = response.getHeaders();
    headers.setContentType(new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8));
    if (status.value() == 503 || status.value() == 429) {
      headers.set(
          HttpHeaders.RETRY_AFTER,
          retryAfterSeconds > 0 ? Long.toString(retryAfterSeconds) : RETRY_AFTER_SECONDS);
    }
    DataBuffer buffer =
        response.bufferFactory().wrap((message + "\n").getBytes(StandardCharsets.UTF_8));
    return response.writeWith(Mono.just(buffer));
  }

  private static Throwable unwrap(Throwable error) {
    Throwable current = error;
    while ((current instanceof CompletionException
            || current instanceof java.util.concurrent.ExecutionException)
        && current.getCause() != null) {
      current = current.getCause();
    }
    return current;
  }
}
