package dev.trainyard.gateway.http;

import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.server.ServerWebExchange;

/**
 * What a handler learned of its request that the filter around it wants afterwards: the body it
 * parsed (the audit log names the queue and PR from it, never keeping the body), and the API
 * operation a dashboard action called. A filter puts a note into the exchange before the handler
 * runs; a request rebuilt from that exchange (an idempotent retry, a dashboard action's API call)
 * copies the reference, so the handler's note is the filter's.
 */
public final class RequestNote {
  static final String ATTRIBUTE = "trainyard.note";

  private volatile RequestBody body;
  private volatile String operation;

  /** A fresh note on {@code exchange}, for the handler that runs next. */
  public static RequestNote attach(ServerWebExchange exchange) {
    RequestNote note = new RequestNote();
    exchange.getAttributes().put(ATTRIBUTE, note);
    return note;
  }

  /** The note on the request's exchange; null when no filter asked for one. */
  public static RequestNote of(ServerRequest request) {
    return request.exchange().getAttribute(ATTRIBUTE);
  }

  static RequestBody noted(ServerRequest request, RequestBody body) {
    RequestNote note = of(request);
    if (note != null) {
      note.body = body;
    }
    return body;
  }

  /** Notes that this request is the API operation at {@code path} (a dashboard action's call). */
  public static void operation(ServerRequest request, String path) {
    RequestNote note = of(request);
    if (note != null && note.operation == null) {
      note.operation = path;
    }
  }

  /** The body the handler parsed; null when it parsed none (or failed to). */
  public RequestBody body() {
    return body;
  }

  /** The API path a dashboard action called; null for an API request itself. */
  public String operation() {
    return operation;
  }
}
