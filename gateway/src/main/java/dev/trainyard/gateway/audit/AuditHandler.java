package dev.trainyard.gateway.audit;

import dev.trainyard.common.json.InvalidRequestException;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.json.Timestamps;
import dev.trainyard.gateway.auth.RouteGuard;
import dev.trainyard.gateway.http.JsonResponses;
import dev.trainyard.gateway.http.RequestBody;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /v1/listAuditEvents} (API.md §6): the organization's audit events, newest first,
 * every filter optional ({@code repo}, {@code targetBranch}, {@code prNumber}, {@code actor},
 * {@code action}, {@code since}, {@code until}), {@code take} (1 to {@value #MAX_TAKE}, default
 * {@value #DEFAULT_TAKE}) at a time, the next page by {@code cursor}.
 */
@Component
public class AuditHandler {
  static final int MAX_TAKE = 100;
  static final int DEFAULT_TAKE = 50;
  private final AuditLog auditLog;

  public AuditHandler(AuditLog auditLog) {
    this.auditLog = auditLog;
  }

  public Mono<ServerResponse> list(ServerRequest request) {
    String org = RouteGuard.org(request.exchange());
    return JsonResponses.body(request)
        .flatMap(
            body -> {
              AuditLog.Filter filter = filter(org, body);
              return auditLog
                  .list(filter)
                  .collectList()
                  .flatMap(events -> JsonResponses.ok(page(events, filter.take())));
            });
  }

  private static AuditLog.Filter filter(String org, RequestBody body) {
    int take = body.optionalLong("take", 1, MAX_TAKE).orElse((long) DEFAULT_TAKE).intValue();
    return new AuditLog.Filter(
        org,
        body.has("repo") ? body.repo() : null,
        body.optionalBranch("targetBranch").orElse(null),
        body.optionalLong("prNumber", 0, RequestBody.MAX_UINT32).orElse(null),
        body.optionalName("actor").orElse(null),
        body.optionalName("action").orElse(null),
        body.optionalInstant("since").orElse(null),
        body.optionalInstant("until").orElse(null),
        body.optionalString("cursor")
            .filter(c -> !c.isEmpty())
            .map(AuditHandler::position)
            .orElse(null),
        take);
  }

  private static ObjectNode page(List<AuditEvent> events, int take) {
    ObjectNode out = Json.mapper().createObjectNode();
    ArrayNode list = out.putArray("auditEvents");
    for (AuditEvent e : events) {
      list.add(item(e));
    }
    AuditEvent last = events.isEmpty() ? null : events.get(events.size() - 1);
    out.put("nextCursor", events.size() < take ? null : cursor(last));
    return out;
  }

  /** An event as {@code listAuditEvents} lists it (and {@code audit_event.recorded} carries it). */
  static ObjectNode item(AuditEvent e) {
    ObjectNode item = Json.mapper().createObjectNode();
    item.put("id", e.id());
    item.put("at", Timestamps.format(e.at()));
    item.set("actor", Json.mapper().valueToTree(e.actor()));
    item.put("via", e.via());
    item.put("action", e.action());
    item.set("repo", Json.mapper().valueToTree(e.repo()));
    item.put("targetBranch", e.targetBranch());
    item.put("prNumber", e.prNumber());
    item.put("ip", e.ip());
    item.put("userAgent", e.userAgent());
    item.put("status", e.status());
    item.put("outcome", e.outcome());
    return item;
  }

  /** Where the next page starts: the last event's time and id, opaque to the client. */
  static String cursor(AuditEvent last) {
    String text = last.at().toEpochMilli() + ":" + last.id();
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  static AuditLog.Position position(String cursor) {
    try {
      String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      int colon = text.indexOf(':');
      return new AuditLog.Position(
          Instant.ofEpochMilli(Long.parseLong(text.substring(0, colon))),
          text.substring(colon + 1));
    } catch (RuntimeException e) {
      throw new InvalidRequestException("cursor is not one a listAuditEvents answer gave");
    }
  }
}
