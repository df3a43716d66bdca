package dev.trainyard.flaky.http;

import org.springframework.http.HttpStatus;

/** An error answered to the caller: a status and one sentence naming what is wrong. */
public class ApiException extends RuntimeException {
  private final HttpStatus status;

  public ApiException(HttpStatus status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  public static ApiException badRequest(String message) {
    return new ApiException(HttpStatus.BAD_REQUEST, message);
  }

  public static ApiException notFound(String message) {
    return new ApiException(HttpStatus.NOT_FOUND, message);
  }

  public static ApiException unavailable(String message) {
    return new ApiException(HttpStatus.SERVICE_UNAVAILABLE, message);
  }

  public HttpStatus status() {
    return status;
  }
}
