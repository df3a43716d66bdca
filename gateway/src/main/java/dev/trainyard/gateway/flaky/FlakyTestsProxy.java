package dev.trainyard.gateway.flaky;

import dev.trainyard.common.flaky.FlakyTestsHeaders;
import dev.trainyard.common.flaky.RequestProof;
import dev.trainyard.gateway.auth.RouteGuard;
import dev.trainyard.gateway.config.GatewayProperties;
import dev.trainyard.gateway.http.ApiException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.netty.channel.ChannelOption;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.PrematureCloseException;

/**
 * Forwards {@code /v1/flaky-tests/*} to the flaky-tests service. The organization the route guard
 * resolved travels in {@link FlakyTestsHeaders#ORG} with a fresh single-use {@link
 * FlakyTestsHeaders#PROOF} for this method and path (copies sent by the client are dropped: only
 * the content type is passed on); the body streams through under its limit; the answer (status,
 * content type, Retry-After, body) comes back unchanged. Unreachable, timing out or answering 5xx
 * counts against a circuit breaker (one for uploads, one for the rest; a client aborting its
 * request is not counted): while it is open, calls get a 503 at once instead of waiting on a
 * service that is down.
 */
@Component
public class FlakyTestsProxy {
  private static final Logger log = LoggerFactory.getLogger(FlakyTestsProxy.class);
  private static final List<Class<? extends Throwable>> SERVICE_FAILURES =
      List.of(
          TimeoutException.class,
          ConnectException.class,
          UnknownHostException.class,
          NoRouteToHostException.class,
          PrematureCloseException.class);
  private static final int MIN_KEY = 32;
  private static final String UNAVAILABLE =
      "the flaky-tests service is unavailable right now; retry later";
  private final GatewayProperties.FlakyTests settings;
  private final RequestProof proofs;
  private final long maxBodyBytes;
  private final WebClient client;
  private final CircuitBreaker readBreaker;
  private final CircuitBreaker uploadBreaker;

  /**
   * @param internalKey the secret both the gateway and the flaky-tests service hold ({@code
   *     trainyard.flaky.internal-key}); each forwarded request's proof is signed with it
   * @param clock the time each proof states; the service refuses one 5 minutes off its own clock
   */
  public FlakyTestsProxy(
      GatewayProperties props,
      ReactorResourceFactory resources,
      @Value("${trainyard.flaky.internal-key:#{null}}") String internalKey,
      InstantSource clock) {
    this.settings = props.flakyTests();
    boolean forwarding = settings.url() != null && !settings.url().isBlank();
    if (forwarding && (internalKey == null || internalKey.length() < MIN_KEY)) {
      // the service answers every unsigned request with a 401: refuse to start instead
      throw new IllegalStateException(
          "trainyard.flaky.internal-key (TRAINYARD_FLAKY_INTERNAL_KEY) must hold the secret of at"
              + " least "
              + MIN_KEY
              + " characters the flaky-tests service holds, to sign each forwarded request");
    }
    this.proofs = forwarding ? new RequestProof(internalKey, clock) : null;
    this.maxBodyBytes = props.maxBodyBytes();
    this.client =
        !forwarding
            ? null
            : WebClient.builder()
                .baseUrl(settings.url())
                .clientConnector(
                    new ReactorClientHttpConnector(
                        resources, http -> http.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 1000)))
                .codecs(c -> c.defaultCodecs().maxInMemorySize(32 * 1024 * 1024))
                .build();
    // uploads (large, up to 2 minutes) and reads fail differently: one must not open the other
    this.readBreaker = CircuitBreaker.of("flaky-tests", breakerConfig());
    this.uploadBreaker = CircuitBreaker.of("flaky-tests-upload", breakerConfig());
  }

  static CircuitBreakerConfig breakerConfig() {
    return CircuitBreakerConfig.custom()
        .slidingWindowSize(10)
        .minimumNumberOfCalls(4)
        .failureRateThreshold(50)
        .waitDurationInOpenState(Duration.ofSeconds(5))
        .permittedNumberOfCallsInHalfOpenState(2)
        .build();
  }

  /** The breaker of every call but uploads (its state is exposed for tests and metrics). */
  public CircuitBreaker breaker() {
    return readBreaker;
  }

  /**
   * Whether an error says the service is down: it could not be reached (connect refused or timed
   * out, unknown host), did not answer in time, or dropped the connection mid-answer. Anything else
   * — above all the client going away or its body failing — says nothing about the service and is
   * not counted.
   */
  static boolean serviceFailure(Throwable error) {
    return SERVICE_FAILURES.stream().anyMatch(type -> find(error, type) != null);
  }

  public Mono<ServerResponse> forward(ServerRequest request) {
    if (client == null) {
      return Mono.error(ApiException.unavailable(UNAVAILABLE));
    }
    String org = RouteGuard.org(request.exchange());
    String path = request.path();
    boolean upload = path.equals(FlakyTestsHeaders.UPLOAD_PATH);
    long limit = upload ? FlakyTestsHeaders.MAX_UPLOAD_BYTES : maxBodyBytes;
    Duration timeout = upload ? settings.uploadTimeout() : settings.timeout();
    CircuitBreaker breaker = upload ? uploadBreaker : readBreaker;
    if (!breaker.tryAcquirePermission()) {
      return Mono.error(ApiException.unavailable(UNAVAILABLE));
    }
    long started = System.nanoTime();
    HttpHeaders incoming = request.headers().asHttpHeaders();
    // the proof names exactly what is sent: this method, and the path with no query (the
    // flaky-tests routes take none, so none is forwarded)
    HttpMethod method = HttpMethod.POST;
    String proof = proofs.sign(new RequestProof.Request(org, method.name(), path));
    return client
        .method(method)
        .uri(path)
        .headers(
            out -> {
              MediaType type = incoming.getContentType();
              if (type != null) {
                out.setContentType(type);
              }
              out.set(FlakyTestsHeaders.ORG, org);
              out.set(FlakyTestsHeaders.PROOF, proof);
            })
        .body(
            BodyInserters.fromDataBuffers(
                BodyLimit.of(request.exchange().getRequest().getBody(), limit)))
        .exchangeToMono(
            answer ->
                answer
                    .bodyToMono(byte[].class)
                    .defaultIfEmpty(new byte[0])
                    .map(
                        bytes ->
                            new Answer(
                                answer.statusCode(),
                                answer.headers().contentType().orElse(null),
                                answer.headers().asHttpHeaders().getFirst(HttpHeaders.RETRY_AFTER),
                                bytes)))
        .timeout(timeout)
        .doOnNext(
            answer -> {
              if (answer.status().is5xxServerError()) {
                breaker.onError(elapsed(started), TimeUnit.NANOSECONDS, new ServiceError(answer));
              } else {
                breaker.onSuccess(elapsed(started), TimeUnit.NANOSECONDS);
              }
            })
        .doOnCancel(breaker::releasePermission)
        .onErrorMap(error -> translate(breaker, error, started))
        .flatMap(FlakyTestsProxy::respond);
  }

  private Throwable translate(CircuitBreaker breaker, Throwable error, long started) {
    BodyLimit.TooLarge tooLarge = find(error, BodyLimit.TooLarge.class);
    if (tooLarge != null) {
      breaker.releasePermission(); // the client's doing
      return new ApiException(HttpStatus.CONTENT_TOO_LARGE, tooLarge.getMessage());
    }
    if (serviceFailure(error)) {
      breaker.onError(elapsed(started), TimeUnit.NANOSECONDS, error);
    } else {
      breaker.releasePermission(); // e.g. the client aborted its upload: not the service's fault
    }
    log.warn(
        "flaky-tests service call failed ({}): {}",
        error instanceof TimeoutException ? "timeout" : "error",
        error.toString());
    return ApiException.unavailable(UNAVAILABLE);
  }

  private static Mono<ServerResponse> respond(Answer answer) {
    ServerResponse.BodyBuilder response = ServerResponse.status(answer.status());
    if (answer.contentType() != null) {
      response.contentType(answer.contentType());
    }
    if (answer.retryAfter() != null) {
      response.header(HttpHeaders.RETRY_AFTER, answer.retryAfter());
    }
    return answer.body().length == 0 ? response.build() : response.bodyValue(answer.body());
  }

  private static long elapsed(long started) {
    return System.nanoTime() - started;
  }

  private static <T extends Throwable> T find(Throwable error, Class<T> type) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }

  private record Answer(
      HttpStatusCode status, MediaType contentType, String retryAfter, byte[] body) {}

  /** A 5xx from the service, recorded as a failed call. */
  private static final class ServiceError extends RuntimeException {
    ServiceError(Answer answer) {
      super("answered " + answer.status().value(), null, false, false);
    }
  }
}
