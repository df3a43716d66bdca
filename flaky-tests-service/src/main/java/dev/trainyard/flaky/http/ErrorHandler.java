package dev.trainyard.flaky.http;

import dev.trainyard.common.boot.Outage;
import dev.trainyard.common.json.InvalidRequestException;
import dev.trainyard.common.token.InvalidTokenException;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.annotation.Order;
import org.springframework.core.codec.CodecException;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

/**
 * Every error as one plain-text sentence with the status codes of API.md §1: client mistakes keep
 * their 4xx; the store or the broker away is a 503 with {@code Retry-After}; only bugs are 500.
 */
@Order(-2)
public class ErrorHandler implements WebExceptionHandler {
  private static final Logger log = LoggerFactory.getLogger(ErrorHandler.class);

  @Override
  public Mono<Void> handle(ServerWebExchange exchange, Throwable error) {
    ServerHttpResponse response = exchange.getResponse();
    if (response.isCommitted()) {
      return Mono.error(error);
    }
    HttpStatusCode status;
    String message;
    if (error instanceof ApiException api) {
      status = api.status();
      message = api.getMessage();
    } else if (error instanceof InvalidTokenException || error instanceof InvalidRequestException) {
      status = HttpStatus.BAD_REQUEST;
      message = error.getMessage();
    } else if (causedBy(error, DataBufferLimitException.class)) {
      status = HttpStatus.CONTENT_TOO_LARGE;
      message = "a part of the upload is larger than its limit";
    } else if (error instanceof CodecException) {
      status = HttpStatus.BAD_REQUEST;
      message = "the request body could not be read: " + error.getMessage();
    } else if (error instanceof ResponseStatusException rse) {
      status = rse.getStatusCode();
      message = rse.getReason() != null ? rse.getReason() : "request not accepted";
    } else if (causedBy(error, reactor.netty.channel.AbortedException.class)) {
      // the caller closed the connection mid-body (an upload cut off at its limit): not a bug
      status = HttpStatus.BAD_REQUEST;
      message = "the connection closed before the request body was received";
      log.info("request on {} aborted by the caller", exchange.getRequest().getPath());
    } else if (causedBy(error, com.mongodb.MongoInterruptedException.class)) {
      // the caller went away (the gateway's timeout) and the work was interrupted: not a bug
      status = HttpStatus.SERVICE_UNAVAILABLE;
      message = "the request was cancelled before the store answered; retry later";
      log.debug("request cancelled while reading the store", error);
    } else if (Outage.isOutage(error)) {
      status = HttpStatus.SERVICE_UNAVAILABLE;
      message = "the flaky-tests service cannot reach its store or broker right now; retry later";
      log.warn("answering 503: {}", error.toString());
    } else {
      status = HttpStatus.INTERNAL_SERVER_ERROR;
      message = "internal error";
      log.error("unexpected error on {}", exchange.getRequest().getPath(), error);
    }
    return write(response, status, message);
  }

  static Mono<Void> write(ServerHttpResponse response, HttpStatusCode status, String message) {
    response.setStatusCode(status);
    HttpHeaders headers = response.getHeaders();
    headers.setContentType(new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8));
    if (status.value() == 503) {
      headers.set(HttpHeaders.RETRY_AFTER, "5");
    }
    DataBuffer buffer =
        response.bufferFactory().wrap((message + "\n").getBytes(StandardCharsets.UTF_8));
    return response.writeWith(Mono.just(buffer));
  }

  private static boolean causedBy(Throwable error, Class<? extends Throwable> type) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }
}
