package dev.trainyard.flaky.http;

import dev.trainyard.common.flaky.FlakyTestsHeaders;
import dev.trainyard.common.flaky.RequestProof;
import java.util.stream.Collectors;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Lets through only requests under {@code /v1/flaky-tests/} that carry the gateway's proof for
 * their organization, method and path ({@link RequestProof}), made within 5 minutes of this
 * service's clock and not used before ({@link SeenNonces}); anything else is a 401 before its body
 * is read. Forged proofs are refused before the store is written, so they cannot fill it.
 */
public class GatewayProof implements WebFilter {
  private final RequestProof proofs;
  private final SeenNonces nonces;

  public GatewayProof(RequestProof proofs, SeenNonces nonces) {
    this.proofs = proofs;
    this.nonces = nonces;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    ServerHttpRequest request = exchange.getRequest();
    if (!routed(request).startsWith(FlakyTestsHeaders.PATH_PREFIX)) {
      return chain.filter(exchange);
    }
    // the proof covers the path as sent: the gateway forwards only canonical paths
    String path = request.getURI().getRawPath();
    String query = request.getURI().getRawQuery();
    RequestProof.Verdict verdict =
        proofs.verify(
            new RequestProof.Request(
                request.getHeaders().getFirst(FlakyTestsHeaders.ORG),
                request.getMethod().name(),
                query == null ? path : path + "?" + query),
            request.getHeaders().getFirst(FlakyTestsHeaders.PROOF));
    if (verdict instanceof RequestProof.Rejected rejected) {
      return unauthorized(rejected);
    }
    RequestProof.Accepted accepted = (RequestProof.Accepted) verdict;
    return Mono.fromCallable(() -> nonces.firstUse(accepted.nonce(), accepted.usableUntil()))
        .subscribeOn(Schedulers.boundedElastic())
        .flatMap(first -> first ? chain.filter(exchange) : unauthorized(RequestProof.replayed()));
  }

  /**
   * The path as the router matches it: segments decoded, {@code ;} parameters dropped. Checking the
   * raw path instead would let {@code /v1/flaky%2Dtests/…} reach a handler without a proof.
   */
  private static String routed(ServerHttpRequest request) {
    return request.getPath().pathWithinApplication().elements().stream()
        .map(
            e ->
                e instanceof PathContainer.PathSegment segment ? segment.valueToMatch() : e.value())
        .collect(Collectors.joining());
  }

  private static Mono<Void> unauthorized(RequestProof.Rejected rejected) {
    return Mono.error(new ApiException(HttpStatus.UNAUTHORIZED, rejected.reason()));
  }
}
