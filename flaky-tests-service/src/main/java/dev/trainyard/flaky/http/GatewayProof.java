package dev.trainyard.flaky.http;

import dev.trainyard.common.flaky.FlakyTestsHeaders;
import dev.trainyard.common.flaky.OrgSignature;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Lets through only requests whose organization header the gateway signed ({@link OrgSignature}
 * under the secret both hold); anything else under {@code /v1/flaky-tests/} is a 401 before its
 * body is read.
 */
public class GatewayProof implements WebFilter {
  private final String key;

  public GatewayProof(String key) {
    this.key = key;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    if (!exchange.getRequest().getPath().value().startsWith(FlakyTestsHeaders.PATH_PREFIX)) {
      return chain.filter(exchange);
    }
    var headers = exchange.getRequest().getHeaders();
    String org = headers.getFirst(FlakyTestsHeaders.ORG);
    String signature = headers.getFirst(FlakyTestsHeaders.ORG_SIGNATURE);
    if (org != null && OrgSignature.verify(key, org, signature)) {
      return chain.filter(exchange);
    }
    return ErrorHandler.write(
        exchange.getResponse(),
        HttpStatus.UNAUTHORIZED,
        "the request does not carry the gateway's signed organization: call the flaky-tests API"
            + " through the gateway");
  }
}
