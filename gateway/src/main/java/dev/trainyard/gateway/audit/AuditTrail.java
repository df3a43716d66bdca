package dev.trainyard.gateway.audit;

import dev.trainyard.common.boot.Outage;
import dev.trainyard.common.json.InvalidRequestException;
import dev.trainyard.gateway.auth.Caller;
import dev.trainyard.gateway.auth.SecuredRoutes;
import dev.trainyard.gateway.config.GatewayProperties;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.ClientAddresses;
import dev.trainyard.gateway.http.RequestBody;
import dev.trainyard.gateway.http.RequestNote;
import java.time.InstantSource;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.HandlerFilterFunction;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * Wraps every mutation route (the API's, the admin API's, the dashboard's actions) outside its
 * guard: once the answer is known, records who asked for what, on which queue and PR, from where,
 * and the answer — a refusal (403, 404, 409) included. A request no token or session was resolved
 * for (401) is not recorded: it names no one, and anyone could fill the log with them; nor is one
 * the rate limit held back (429), which the bucket bounds and which asked nothing of a queue. The
 * event is stored before the answer is sent; a store that cannot take it is logged and the answer
 * goes out (the action has happened either way).
 */
@Component
public class AuditTrail implements HandlerFilterFunction<ServerResponse, ServerResponse> {
  private static final Logger log = LoggerFactory.getLogger(AuditTrail.class);
  private static final int MAX_USER_AGENT = 256;
  private static final int MAX_OUTCOME = 500;

  private final AuditLog auditLog;
  private final AuditAnnouncer announcer;
  private final InstantSource clock;
  private final boolean addressFromForwarded;

  public AuditTrail(
      AuditLog auditLog, AuditAnnouncer announcer, InstantSource clock, GatewayProperties props) {
    this.auditLog = auditLog;
    this.announcer = announcer;
    this.clock = clock;
    this.addressFromForwarded = props.dashboard().clientAddressFromForwarded();
  }

  @Override
  public Mono<ServerResponse> filter(ServerRequest request, HandlerFunction<ServerResponse> next) {
    if (SecuredRoutes.isRead(request.path())) {
      return next.handle(request); // a forwarded flaky-tests read (get-…, list-…) changes nothing
    }
    RequestNote note = RequestNote.attach(request.exchange());
    return next.handle(request)
        .flatMap(
            answer -> record(request, note, answer.statusCode().value(), null).thenReturn(answer))
        .onErrorResume(
            error ->
                record(request, note, status(error), error.getMessage()).then(Mono.error(error)));
  }

  private Mono<Void> record(ServerRequest request, RequestNote note, int status, String refusal) {
    Caller caller = Caller.of(request.exchange());
    if (caller == null || status == 429) {
      // no one named, or held back by the rate limit before anything was asked of the queue
      return Mono.empty();
    }
    RequestBody body = note.body();
    AuditEvent event =
        new AuditEvent(
            null,
            caller.org() != null ? caller.org() : adminTarget(body),
            clock.instant(),
            new AuditEvent.Actor(caller.id(), caller.name(), caller.role().wire()),
            request.path().startsWith("/ui/") ? "dashboard" : "api",
            action(note.operation() != null ? note.operation() : request.path()),
            body == null ? null : quietly(body::repo),
            body == null ? null : quietly(() -> body.optionalString("targetBranch").orElse(null)),
            body == null ? null : quietly(body::prNumber),
            ClientAddresses.of(request, addressFromForwarded),
            cut(request.headers().firstHeader(HttpHeaders.USER_AGENT), MAX_USER_AGENT),
            status,
            status < 400 ? null : cut(refusal, MAX_OUTCOME));
    return announcer
        .wanted(event.org())
        .flatMap(
            announce ->
                auditLog
                    .record(event, announce)
                    .doOnNext(
                        stored -> {
                          if (announce) {
                            announcer.soon(stored);
                          }
                        }))
        .then()
        .onErrorResume(
            e -> {
              log.warn("an audit event of {} was not stored: {}", event.action(), e.toString());
              return Mono.empty();
            });
  }

  /** {@code cancelPullRequest}, {@code flaky-tests/upload}, {@code admin/createApiToken}, … */
  static String action(String path) {
    if (path.startsWith("/v1/")) {
      return path.substring("/v1/".length());
    }
    if (path.startsWith("/admin/v1/")) {
      return "admin/" + path.substring("/admin/v1/".length());
    }
    if (path.startsWith("/ui/actions/")) {
      return "dashboard/" + path.substring("/ui/actions/".length());
    }
    return "dashboard/" + path.substring(path.lastIndexOf('/') + 1);
  }

  /** An admin action's organization: the one its body names ({@code org} or {@code slug}). */
  private static String adminTarget(RequestBody body) {
    if (body == null) {
      return "";
    }
    String org = quietly(() -> body.optionalString("org").orElse(null));
    if (org == null) {
      org = quietly(() -> body.optionalString("slug").orElse(null));
    }
    return org == null ? "" : org;
  }

  private static int status(Throwable error) {
    if (error instanceof ApiException api) {
      return api.status().value();
    }
    if (error instanceof InvalidRequestException) {
      return 400;
    }
    return Outage.isOutage(error) ? 503 : 500;
  }

  /** A field of the body, or null when it has none (or none that is valid). */
  private static <T> T quietly(Supplier<T> read) {
    try {
      return read.get();
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static String cut(String text, int max) {
    return text == null || text.length() <= max ? text : text.substring(0, max);
  }
}
