package dev.trainyard.webhooks.outbound;

import dev.trainyard.common.net.OutboundGuard;
import dev.trainyard.common.net.OutboundRefusedException;
import io.netty.channel.ChannelOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

/**
 * Posts deliveries over connections that go only where the outbound guard looked. The URL is
 * checked before anything else ({@link OutboundGuard#target}); a host name is then resolved once,
 * off the event loops ({@link CheckedLookups}), and the connection goes to one of the addresses the
 * guard checked in that answer. A pooled connection is reused only for its own host and was checked
 * when it was made. Redirects are not followed: a 3xx is an answer like any other non-2xx. Its own
 * event loops keep deliveries off the threads of whatever else runs in the process.
 */
public final class WebhookClient implements AutoCloseable {
  /** How long a name may take to resolve before the attempt fails (and is retried later). */
  static final Duration DNS_TIMEOUT = Duration.ofSeconds(5);

  private static final int MAX_CONNECTIONS_PER_HOST = 64;

  /** What an endpoint answered: the status, and {@code Retry-After} when it sent one. */
  public record Answer(int status, Optional<String> retryAfter) {}

  private final OutboundGuard guard;
  private final Duration timeout;
  private final CheckedLookups lookups;
  private final LoopResources loops = LoopResources.create("trainyard-webhooks", 2, true);
  private final ConnectionProvider connections;
  private final HttpClient http;

  /** {@code timeout} bounds one attempt: lookup, connection, request and answer. */
  public WebhookClient(OutboundGuard guard, Duration timeout) {
    this.guard = guard;
    this.timeout = timeout;
    this.lookups = new CheckedLookups(guard, DNS_TIMEOUT);
    this.connections =
        ConnectionProvider.builder("trainyard-webhooks")
            .maxConnections(MAX_CONNECTIONS_PER_HOST)
            .pendingAcquireMaxCount(-1) // the dispatcher bounds attempts per endpoint
            .pendingAcquireTimeout(timeout)
            .maxIdleTime(Duration.ofSeconds(30))
            .build();
    this.http =
        HttpClient.create(connections)
            .runOn(loops)
            .resolver(new GuardedResolverGroup(lookups))
            .followRedirect(false)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) timeout.toMillis())
            .responseTimeout(timeout);
  }

  /**
   * Posts {@code body} to {@code url} with {@code headers}; the answer's body is read and dropped.
   * Fails with {@link OutboundRefusedException} when the URL, or an address its host resolves to,
   * may not be reached — before any connection is made.
   */
  public Mono<Answer> post(String url, Map<String, String> headers, String body) {
    OutboundGuard.Target target;
    try {
      target = guard.target(url);
    } catch (OutboundRefusedException e) {
      return Mono.error(e);
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return http.post()
        .uri(target.uri())
        .send(
            (request, out) -> {
              headers.forEach(request::header);
              request.header("content-length", Integer.toString(bytes.length));
              return out.sendByteArray(Mono.just(bytes));
            })
        .response(
            (response, content) ->
                content
                    .then()
                    .thenReturn(
                        new Answer(
                            response.status().code(),
                            Optional.ofNullable(response.responseHeaders().get("retry-after")))))
        .next()
        .timeout(
            timeout,
            Mono.error(new TimeoutException("no answer within " + timeout.toMillis() + " ms")));
  }

  @Override
  public void close() {
    connections.dispose();
    loops.dispose();
    lookups.close();
  }
}
