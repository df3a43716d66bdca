package dev.trainyard.gateway.ui;

import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.RepoNames;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.gateway.auth.Organizations;
import dev.trainyard.gateway.auth.RouteGuard;
import dev.trainyard.gateway.auth.Sessions;
import dev.trainyard.gateway.auth.TokenHash;
import dev.trainyard.gateway.flaky.FlakyTestsProxy;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.FormBodies;
import dev.trainyard.gateway.pulls.PullRequestHandler;
import dev.trainyard.gateway.queues.QueueHandler;
import dev.trainyard.gateway.queues.QueueReader;
import dev.trainyard.gateway.webhooks.WebhookHandler;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Every state-changing action of the dashboard (API.md §8): a POST whose CSRF token the route guard
 * has checked, sent on as the API request it stands for; then back to the page it came from ({@code
 * back}, a path of this site), or a page with the API's refusal and its status.
 */
@Component
public class DashboardActions {
  private static final Pattern QUEUE_ACTION =
      Pattern.compile("/(.+)/(pause|resume|drain|settings|cancel|restart)");
  private final Pages pages;
  private final PullRequestHandler pulls;
  private final QueueHandler queues;
  private final WebhookHandler webhooks;
  private final FlakyTestsProxy flakyTests;
  private final Sessions sessions;
  private final Organizations organizations;
  private final QueueReader queueReader;

  public DashboardActions(
      Pages pages,
      PullRequestHandler pulls,
      QueueHandler queues,
      WebhookHandler webhooks,
      FlakyTestsProxy flakyTests,
      Sessions sessions,
      Organizations organizations,
      QueueReader queueReader) {
    this.queueReader = queueReader;
    this.pages = pages;
    this.pulls = pulls;
    this.queues = queues;
    this.webhooks = webhooks;
    this.flakyTests = flakyTests;
    this.sessions = sessions;
    this.organizations = organizations;
  }

  /** {@code /ui/actions/queues/{host}/{owner}/{name}/{branch…}/{action}}. */
  public Mono<ServerResponse> queue(ServerRequest request) {
    Matcher m = QUEUE_ACTION.matcher(request.pathVariable("rest"));
    if (!m.matches()) {
      return Mono.error(ApiException.notFound("no such action"));
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put(
        "repo",
        Map.of(
            "host", request.pathVariable("host"),
            "owner", request.pathVariable("owner"),
            "name", request.pathVariable("name")));
    body.put("targetBranch", m.group(1));
    String action = m.group(2);
    return FormBodies.submitted(request)
        .flatMap(
            form -> {
              String key = actionKey(request, form);
              Mono<?> done =
                  switch (action) {
                    case "pause" -> update(request, body, Map.of("state", "paused"), key);
                    case "resume" -> update(request, body, Map.of("state", "running"), key);
                    case "drain" -> update(request, body, Map.of("state", "draining"), key);
                    case "settings" -> settings(request, body, form, key);
                    case "cancel" ->
                        ApiCalls.callOnce(
                            pulls::cancel,
                            request,
                            "/v1/cancelPullRequest",
                            withPr(body, form),
                            key);
                    default ->
                        ApiCalls.callOnce(
                            pulls::restart,
                            request,
                            "/v1/restartTestsOnPullRequest",
                            withPr(body, form),
                            key);
                  };
              return done.then(back(form));
            });
  }

  /**
   * The key of one action from one rendered page, which its commands' ids derive from: the page's
   * {@code _key} with the action and every value the form sent, so a double click is applied once
   * while another action from the same page (the same action on another PR, the same settings form
   * sent again with other values) is a request of its own. Null when the form has no key (a page
   * rendered before keys were given).
   */
  private static String actionKey(ServerRequest request, MultiValueMap<String, String> form) {
    String key = form.getFirst("_key");
    if (key == null || key.isBlank() || key.length() > 100) {
      return null;
    }
    StringBuilder fields = new StringBuilder(key).append(' ').append(request.path());
    form.forEach(
        (name, values) -> {
          if (!name.equals("_csrf")) {
            fields.append('\n').append(name).append('=').append(String.join("\u0000", values));
          }
        });
    return "ui-" + TokenHash.sha256(fields.toString());
  }

  private Mono<JsonNode> update(
      ServerRequest request, Map<String, Object> body, Map<String, Object> change, String key) {
    Map<String, Object> all = new LinkedHashMap<>(body);
    all.putAll(change);
    return ApiCalls.callOnce(queues::update, request, "/v1/updateQueue", all, key);
  }

  /**
   * The settings form: applied only to the settings it showed ({@code ifSettingsVersion}); when
   * someone changed them since, nothing is saved and the answer (409) says what they changed, from
   * the values the form showed and the ones the queue has now.
   */
  private Mono<JsonNode> settings(
      ServerRequest request,
      Map<String, Object> body,
      MultiValueMap<String, String> form,
      String key) {
    Map<String, Object> change = new LinkedHashMap<>(SettingsForm.patch(form));
    String version = form.getFirst("_settingsVersion");
    if (version != null && !version.isBlank()) {
      change.put("ifSettingsVersion", version);
    }
    return update(request, body, change, key)
        .onErrorResume(
            e -> e instanceof ApiException a && a.status().value() == 409 && version != null,
            e -> changedMeanwhile(request, body, form, version, e));
  }

  private Mono<JsonNode> changedMeanwhile(
      ServerRequest request,
      Map<String, Object> body,
      MultiValueMap<String, String> form,
      String version,
      Throwable refusal) {
    @SuppressWarnings("unchecked")
    Map<String, String> repo = (Map<String, String>) body.get("repo");
    QueueKey queue =
        new QueueKey(
            RouteGuard.org(request.exchange()),
            new RepoRef(repo.get("host"), repo.get("owner"), repo.get("name")),
            (String) body.get("targetBranch"));
    return queueReader
        .view(queue)
        .flatMap(
            view -> {
              SettingsForm now = SettingsForm.of(view.settings());
              if (now.version().equals(version)) {
                return Mono.error(refusal); // a conflict of another kind: said as it is
              }
              List<String> changes = now.changedSince(form.getFirst("_shown"));
              return Mono.error(
                  ApiException.conflict(
                      "Someone changed this queue's settings after you opened the form, so"
                          + " yours were not saved"
                          + (changes.isEmpty()
                              ? ""
                              : ". Their change: " + String.join("; ", changes))
                          + ". Reload the page to see the settings as they are and apply yours"
                          + " again."));
            });
  }

  private static Map<String, Object> withPr(
      Map<String, Object> body, MultiValueMap<String, String> form) {
    String pr = form.getFirst("pr");
    if (pr == null || !pr.matches("[0-9]{1,10}")) {
      throw ApiException.badRequest("the form names no pull request");
    }
    Map<String, Object> all = new LinkedHashMap<>(body);
    all.put("pr", Map.of("number", Long.parseLong(pr)));
    return all;
  }

  /** {@code /ui/actions/webhooks/{action}}: redeliver, enable, rotate-secret. */
  public Mono<ServerResponse> webhook(ServerRequest request) {
    String action = request.pathVariable("action");
    return FormBodies.submitted(request)
        .flatMap(
            form ->
                switch (action) {
                  case "redeliver" ->
                      ApiCalls.callOnce(
                              webhooks::redeliver,
                              request,
                              "/v1/webhooks/redeliver",
                              Map.of("deliveryId", field(form, "deliveryId")),
                              actionKey(request, form))
                          .then(back(form));
                  case "enable" ->
                      ApiCalls.call(
                              webhooks::enableEndpoint,
                              request,
                              "/v1/webhooks/enableEndpoint",
                              Map.of("id", field(form, "id")))
                          .then(back(form));
                  case "rotate-secret" ->
                      ApiCalls.call(
                              webhooks::rotateSecret,
                              request,
                              "/v1/webhooks/rotateSecret",
                              Map.of("id", field(form, "id")))
                          .flatMap(
                              answer ->
                                  pages.render(
                                      request,
                                      "secret",
                                      Map.of(
                                          "title",
                                          "New signing secret",
                                          "secret",
                                          answer.path("secret").asString())));
                  default -> Mono.error(ApiException.notFound("no such action"));
                });
  }

  /** {@code /ui/actions/flaky-tests/{host}/{owner}/{name}/quarantine}: the override of one test. */
  public Mono<ServerResponse> quarantine(ServerRequest request) {
    Map<String, String> repo = OrgPages.repo(request);
    return FormBodies.submitted(request)
        .flatMap(
            form -> {
              Map<String, Object> body = new LinkedHashMap<>();
              body.put("repo", repo);
              body.put("test_id", field(form, "testId"));
              body.put("setting", field(form, "setting"));
              String reason = form.getFirst("reason");
              if (reason != null && !reason.isBlank()) {
                body.put("reason", reason);
              }
              return ApiCalls.call(
                      flakyTests::forward, request, "/v1/flaky-tests/set-quarantine-setting", body)
                  .then(back(form));
            });
  }

  /**
   * {@code /ui/actions/look-at}: a session that may switch (an admin's; a person's with more than
   * one organization) looks at another organization, under a new session id.
   */
  public Mono<ServerResponse> lookAt(ServerRequest request) {
    Sessions.Session session = RouteGuard.session(request.exchange());
    if (!session.switches()) {
      return Mono.error(ApiException.notFound("no such action"));
    }
    return FormBodies.submitted(request)
        .flatMap(
            form -> {
              String org = RepoNames.segment("org", field(form, "org"));
              Mono<Boolean> reachable =
                  session.admin() || session.person().memberships().containsKey(org)
                      ? organizations.exists(org)
                      : Mono.just(false);
              return reachable.flatMap(
                  yes ->
                      yes
                          ? sessions
                              .switchTo(session, org)
                              .flatMap(
                                  switched ->
                                      Pages.redirect("/ui/")
                                          .cookie(sessions.cookie(request, switched))
                                          .build())
                          : Mono.error(ApiException.notFound("no organization " + org)));
            });
  }

  private static String field(MultiValueMap<String, String> form, String name) {
    String value = form.getFirst(name);
    if (value == null || value.isBlank() || value.length() > 1_000) {
      throw ApiException.badRequest("the form's " + name + " is missing");
    }
    return value;
  }

  private static Mono<ServerResponse> back(MultiValueMap<String, String> form) {
    return Pages.seeOther(form.getFirst("back"));
  }
}
