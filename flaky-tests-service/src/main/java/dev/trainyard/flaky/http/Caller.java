package dev.trainyard.flaky.http;

import dev.trainyard.common.flaky.FlakyTestsHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.server.ServerRequest;

/** The organization the gateway authenticated the request for. */
public final class Caller {
  private Caller() {}

  public static String org(ServerRequest request) {
    String org = request.headers().firstHeader(FlakyTestsHeaders.ORG);
    if (org == null || org.isBlank()) {
      throw new ApiException(
          HttpStatus.UNAUTHORIZED,
          "the request carries no organization: call the flaky-tests API through the gateway");
    }
    return org;
  }
}
