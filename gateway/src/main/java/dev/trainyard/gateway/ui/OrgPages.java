package dev.trainyard.gateway.ui;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.net.PathSegments;
import dev.trainyard.common.queue.RepoNames;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.gateway.audit.AuditHandler;
import dev.trainyard.gateway.auth.RouteGuard;
import dev.trainyard.gateway.flaky.FlakyTestsProxy;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.queues.RepositoryQueues;
import dev.trainyard.gateway.webhooks.WebhookHandler;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.util.UriComponentsBuilder;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * The dashboard's organization pages beyond the queues: webhook endpoints with their delivery log,
 * and a repository's unhealthy tests. Both read through the API's handlers ({@link ApiCalls}).
 */
@Component
public class OrgPages {
  static final int DELIVERIES = 50;
  static final int TESTS_PER_STATUS = 100;
  private final Pages pages;
  private final WebhookHandler webhooks;
  private final FlakyTestsProxy flakyTests;
  private final RepositoryQueues repositoryQueues;
  private final AuditHandler audit;

  public OrgPages(
      Pages pages,
      WebhookHandler webhooks,
      FlakyTestsProxy flakyTests,
      RepositoryQueues repositoryQueues,
      AuditHandler audit) {
    this.audit = audit;
    this.repositoryQueues = repositoryQueues;
    this.pages = pages;
    this.webhooks = webhooks;
    this.flakyTests = flakyTests;
  }

  /**
   * {@code /ui/audit}: the organization's audit log, newest first, filtered by {@code action} and
   * {@code actor}, 50 at a time ({@code cursor}); for sessions whose token may administer.
   */
  public Mono<ServerResponse> audit(ServerRequest request) {
    Map<String, Object> body = new LinkedHashMap<>();
    String action = request.queryParam("action").map(String::strip).orElse("");
    String actor = request.queryParam("actor").map(String::strip).orElse("");
    if (!action.isEmpty()) {
      body.put("action", action);
    }
    if (!actor.isEmpty()) {
      body.put("actor", actor);
    }
    request.queryParam("cursor").ifPresent(c -> body.put("cursor", c));
    return ApiCalls.call(audit::list, request, "/v1/listAuditEvents", body)
        .flatMap(
            answer -> {
              Map<String, Object> model = new HashMap<>();
              model.put("title", "Audit log");
              model.put("events", maps(answer.path("auditEvents")));
              model.put("action", action);
              model.put("actor", actor);
              String next = answer.path("nextCursor").asString(null);
              model.put(
                  "older",
                  next == null
                      ? null
                      : UriComponentsBuilder.fromPath("/ui/audit")
                          .queryParam("action", action)
                          .queryParam("actor", actor)
                          .queryParam("cursor", next)
                          .encode()
                          .toUriString());
              return pages.render(request, "audit", model);
            });
  }

  /** {@code /ui/webhooks}: every endpoint and the newest deliveries with their attempts. */
  public Mono<ServerResponse> webhooks(ServerRequest request) {
    return Mono.zip(
            ApiCalls.call(webhooks::listEndpoints, request, "/v1/webhooks/listEndpoints", Map.of()),
            ApiCalls.call(
                webhooks::listDeliveries,
                request,
                "/v1/webhooks/listDeliveries",
                Map.of("take", DELIVERIES)))
        .flatMap(
            both ->
                pages.render(
                    request,
                    "webhooks",
                    Map.of(
                        "title",
                        "Webhooks",
                        "endpoints",
                        maps(both.getT1().path("endpoints")),
                        "deliveries",
                        maps(both.getT2().path("deliveries")),
                        "live",
                        "org")));
  }

  /**
   * {@code /ui/flaky-tests/{host}/{owner}/{name}} (the unhealthy tests, filtered by {@code status}
   * and a text {@code q}) and {@code …/{testId}} (one test with its quarantine override).
   */
  public Mono<ServerResponse> flakyTests(ServerRequest request) {
    Map<String, String> repo = repo(request);
    String status = request.queryParam("status").orElse("all");
    String q = request.queryParam("q").orElse("").strip().toLowerCase(java.util.Locale.ROOT);
    List<String> statuses =
        switch (status) {
          case "flaky" -> List.of("FLAKY");
          case "broken" -> List.of("BROKEN");
          default -> List.of("BROKEN", "FLAKY");
        };
    return Flux.fromIterable(statuses)
        .concatMap(s -> unhealthy(request, repo, s))
        .filter(
            t ->
                q.isEmpty()
                    || String.valueOf(t.get("name")).toLowerCase().contains(q)
                    || String.valueOf(t.get("file_path")).toLowerCase().contains(q))
        .collectList()
        .filterWhen(tests -> tests.isEmpty() ? hasQueueOn(request, repo) : Mono.just(true))
        .switchIfEmpty(
            Mono.error(
                () ->
                    ApiException.notFound(
                        "no queue and no unhealthy test of this organization is on "
                            + repo.get("owner")
                            + "/"
                            + repo.get("name"))))
        .flatMap(
            tests -> {
              Map<String, Object> model = new HashMap<>();
              model.put(
                  "title", "Unhealthy tests of " + repo.get("owner") + "/" + repo.get("name"));
              model.put("repo", repo);
              model.put("tests", tests);
              model.put("status", status);
              model.put("q", q);
              model.put("base", flakyBase(repo));
              model.put("live", "flaky");
              return pages.render(request, "flaky-tests", model);
            });
  }

  /**
   * Whether the session's organization has a queue on {@code repo}: a repository it neither queues
   * nor has unhealthy tests of is answered as the API answers another organization's, 404.
   */
  private Mono<Boolean> hasQueueOn(ServerRequest request, Map<String, String> repo) {
    return repositoryQueues
        .find(
            RouteGuard.org(request.exchange()),
            new RepoRef(repo.get("host"), repo.get("owner"), repo.get("name")))
        .map(queues -> !queues.isEmpty());
  }

  /** {@code …/{testId}}: one test (healthy or not) with its runs and its quarantine override. */
  public Mono<ServerResponse> flakyTest(ServerRequest request) {
    Map<String, String> repo = repo(request);
    return testCase(request, request.pathVariable("testId"))
        .filter(answer -> repo.equals(Json.mapper().convertValue(answer.path("repo"), Map.class)))
        .switchIfEmpty(
            Mono.error(
                () ->
                    ApiException.notFound(
                        "no test "
                            + request.pathVariable("testId")
                            + " in "
                            + repo.get("owner")
                            + "/"
                            + repo.get("name"))))
        .flatMap(
            answer -> {
              Map<String, Object> test = maps(List.of(answer.path("test"))).get(0);
              Map<String, Object> model = new HashMap<>();
              model.put("title", String.valueOf(test.get("name")));
              model.put("repo", repo);
              model.put("test", test);
              model.put("setting", answer.path("quarantine_setting").asString());
              model.put(
                  "quarantineForm",
                  Links.quarantineForm(repo.get("host"), repo.get("owner"), repo.get("name")));
              model.put("runs", maps(answer.path("runs")));
              model.put("base", flakyBase(repo));
              model.put("live", "flaky");
              return pages.render(request, "flaky-test", model);
            });
  }

  /** {@code /ui/flaky-tests/test/{testId}}: where the listing's {@code html_url} leads. */
  public Mono<ServerResponse> flakyTestById(ServerRequest request) {
    String id = request.pathVariable("testId");
    return testCase(request, id)
        .flatMap(
            answer -> {
              JsonNode repo = answer.path("repo");
              return Pages.seeOther(
                  Links.flakyTests(
                          repo.path("host").asString(),
                          repo.path("owner").asString(),
                          repo.path("name").asString())
                      + "/"
                      + PathSegments.segment(answer.path("test").path("id").asString()));
            });
  }

  /**
   * {@code /{org}/flaky-tests/test/{testId}}: the listing's {@code html_url}, to the test's page.
   */
  public Mono<ServerResponse> htmlUrl(ServerRequest request) {
    return Pages.seeOther(
        "/ui/flaky-tests/test/"
            + uuid(request.pathVariable("testId"))
            + "?org="
            + PathSegments.segment(request.pathVariable("org")));
  }

  private static String uuid(String text) {
    try {
      return java.util.UUID.fromString(text).toString();
    } catch (IllegalArgumentException e) {
      throw ApiException.notFound("no test " + text);
    }
  }

  private Mono<JsonNode> testCase(ServerRequest request, String testId) {
    uuid(testId);
    return ApiCalls.call(
        flakyTests::forward, request, "/v1/flaky-tests/get-test-case", Map.of("test_id", testId));
  }

  static String flakyBase(Map<String, String> repo) {
    return Links.flakyTests(repo.get("host"), repo.get("owner"), repo.get("name"));
  }

  private Flux<Map<String, Object>> unhealthy(
      ServerRequest request, Map<String, String> repo, String status) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("repo", repo);
    body.put("org_url_slug", RouteGuard.org(request.exchange()));
    body.put("status", status);
    body.put("page_query", Map.of("page_size", TESTS_PER_STATUS, "page_token", ""));
    return ApiCalls.call(flakyTests::forward, request, "/v1/flaky-tests/list-unhealthy-tests", body)
        .flatMapIterable(answer -> maps(answer.path("tests")));
  }

  static Map<String, String> repo(ServerRequest request) {
    try {
      Map<String, String> repo = new LinkedHashMap<>();
      repo.put("host", RepoNames.host("host", request.pathVariable("host")));
      repo.put("owner", RepoNames.segment("owner", request.pathVariable("owner")));
      repo.put("name", RepoNames.segment("name", request.pathVariable("name")));
      return repo;
    } catch (RuntimeException e) {
      throw ApiException.notFound("no such repository");
    }
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> maps(Iterable<JsonNode> list) {
    List<Map<String, Object>> out = new ArrayList<>();
    list.forEach(n -> out.add(Json.mapper().convertValue(n, Map.class)));
    return out;
  }
}
