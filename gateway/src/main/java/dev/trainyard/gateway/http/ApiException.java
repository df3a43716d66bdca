package dev.trainyard.gateway.http;

import org.springframework.http.HttpStatus;

/** An error answered to the client: a status and one sentence naming what is wrong. */
public class ApiException extends RuntimeException {
  private final HttpStatus status;
  private final long retryAfterSeconds;

  public ApiException(HttpStatus status, String message) {
    this(status, message, 0);
  }

  private ApiException(HttpStatus status, String message, long retryAfterSeconds) {
    super(message, null, false, false);
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** A 429: the client may try again after {@code retryAfterSeconds} (at least 1). */
  public static ApiException tooManyRequests(String message, long retryAfterSeconds) {
    return new ApiException(HttpStatus.TOO_MANY_REQUESTS, message, Math.max(1, retryAfterSeconds));
  }

  public static ApiException badRequest(String message) {
    return new ApiException(HttpStatus.BAD_REQUEST, message);
  }

  public static ApiException notFound(String message) {
    return new ApiException(HttpStatus.NOT_FOUND, message);
  }

  public static ApiException conflict(String message) {
    return new ApiException(HttpStatus.CONFLICT, message);
  }

  public static ApiException unauthorized(String message) {
    return new ApiException(HttpStatus.UNAUTHORIZED, message);
  }

  public static ApiException unavailable(String message) {
    return new ApiException(HttpStatus.SERVICE_UNAVAILABLE, message);
  }

  /** A 503 the client may retry after {@code retryAfterSeconds} (at least 1). */
  public static ApiException unavailable(String message, long retryAfterSeconds) {
    return new ApiException(
        HttpStatus.SERVICE_UNAVAILABLE, message, Math.max(1, retryAfterSeconds));
  }

  public HttpStatus status() {
    return status;
  }

  /** The {@code Retry-After} this answer names, or 0 for the default of its status. */
  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }
}
