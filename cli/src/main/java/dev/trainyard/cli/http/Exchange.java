package dev.trainyard.cli.http;

import java.util.Map;

/**
 * One request and its answer as they went over the wire.
 *
 * @param path the request's path, as {@code /v1/getQueue}
 * @param json the request's JSON body
 * @param headers the answer's headers, names in lower case, each with its first value
 */
public record Exchange(
    String method, String path, String json, int status, Map<String, String> headers, String body) {

  /** Who sees every exchange: nobody, or a test holding them to the OpenAPI document. */
  @FunctionalInterface
  public interface Observer {
    Observer NONE = exchange -> {};

    void exchanged(Exchange exchange);
  }
}
